/**
 * A form upload read by `@File` and `@FormField` (the functional forms: `formFile`/`formField` over
 * `req.form()`), and a stream of server-sent events returned with `sse()` from a decorated method.
 */
import { type FormFile, Int, sse, Text } from "switchyard-router";
import { Describe, File, FormField, Query, Route } from "switchyard-router/decorators";

export class UploadsController {
  @Describe({
    summary: "Upload an avatar (multipart/form-data: the file `avatar`, an optional field `caption`)",
    responses: {
      200: {
        description: "what was received",
        schema: {
          type: "object",
          properties: {
            name: { type: "string" },
            type: { type: "string" },
            size: { type: "integer", minimum: 0 },
            checksum: { type: "integer", minimum: 0 },
            caption: { type: ["string", "null"] },
          },
          required: ["name", "type", "size", "checksum", "caption"],
        },
      },
    },
  })
  @Route("POST /api/avatars")
  async upload(
    @File("avatar") avatar: FormFile,
    @FormField("caption", Text, { optional: true }) caption: string | undefined,
  ) {
    const bytes = await avatar.bytes();
    // a stand-in for storing it: the client can check the bytes arrived intact
    let checksum = 0;
    for (const byte of bytes) checksum = (checksum * 31 + byte) % 1_000_000_007;
    return { name: avatar.name, type: avatar.type, size: bytes.byteLength, checksum, caption: caption ?? null };
  }
}

export class EventsController {
  @Describe({
    summary: "A countdown as server-sent events: `tick` events from `from` (3 unless given, at most 10), then `done`",
    responses: {
      200: { description: "an event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
    },
  })
  @Route("GET /api/countdown")
  countdown(@Query("from", Int, { optional: true }) from: number | undefined) {
    const start = Math.max(0, Math.min(from ?? 3, 10));
    return sse(
      (async function* () {
        for (let n = start; n > 0; n--) yield { event: "tick", id: String(n), data: String(n) };
        yield { event: "done", data: "liftoff" };
      })(),
    );
  }
}

import {
  type BodySource,
  type FormLimits,
  type FormOptions,
  isHttpError,
  pipeline,
  type RequestInput,
  route,
} from "../src/index";
import { type BodyPart, byteRun, chunked, multipartBody, multipartType } from "./fixtures/forms-body";

/*
 * Every form limit, enforced while the bytes arrive: at the limit the form is read; one over, a 413
 * whose JSON names the part and the limit, given before the excess is read (the body source is stopped
 * within a chunk of where the limit was passed) — also when the handler streams the file.
 */

const CHUNK = 512;
const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** A body source over `chunks` that counts the bytes read and whether it was stopped. */
function countedSource(chunks: readonly Uint8Array[]): BodySource & { bytes: number; stopped: boolean } {
  let next = 0;
  const source = {
    bytes: 0,
    stopped: false,
    read: async () => {
      if (source.stopped || next >= chunks.length) return null;
      const chunk = chunks[next++]!;
      source.bytes += chunk.byteLength;
      return chunk;
    },
    stop: () => {
      source.stopped = true;
    },
  };
  return source;
}

/** Reads a whole form with `limits` and answers what it saw. */
const formApp = (limits: Partial<FormLimits>) =>
  route("POST /", async (req) => {
    const form = await req.form({ limits } as FormOptions);
    return { fields: [...form.fields].length, files: [...form.files.values()].flat().length };
  });

/** Streams every part with `limits`, reading each file through its stream. */
const partsApp = (limits: Partial<FormLimits>) =>
  route("POST /", async (req) => {
    let parts = 0;
    for await (const part of req.parts({ limits })) {
      parts++;
      if (part.kind === "file") await part.stream().pipeTo(new WritableStream());
    }
    return { parts };
  });

interface Sent {
  readonly status: number;
  readonly json: Record<string, unknown>;
  readonly source: { bytes: number; stopped: boolean };
}

async function send(
  app: ReturnType<typeof formApp>,
  body: Uint8Array,
  type = multipartType(),
  extraHeaders: Record<string, string> = {},
): Promise<Sent> {
  const source = countedSource(chunked(body, CHUNK));
  const input: RequestInput = {
    method: "POST",
    url: "/",
    headers: { "content-type": type, ...extraHeaders },
    body: source,
  };
  const reply = await pipeline(app, { onError: () => undefined, bodyLimit: 10 * 1024 * 1024 })(input);
  return { status: reply!.status, json: JSON.parse(utf8.decode(encoder.encode(reply!.body as string))), source };
}

/** Where `needle` (a string) first occurs in `body`. */
function offsetOf(body: Uint8Array, needle: string): number {
  return Buffer.from(body).indexOf(needle);
}

/** The 413 of a limit, and that no more than a chunk past `excessAt` was read. */
function expectRefused(sent: Sent, json: Record<string, unknown>, excessAt: number): void {
  expect(sent.status).toBe(413);
  expect(sent.json).toEqual(json);
  expect(sent.source.stopped).toBe(true);
  expect(sent.source.bytes).toBeLessThanOrEqual(excessAt + CHUNK + 200);
}

const file = (name: string, size: number): BodyPart => ({
  file: name,
  filename: `${name}.bin`,
  content: byteRun(size),
});
const field = (name: string, value: string): BodyPart => ({ field: name, value });

describe.each([
  ["req.form()", formApp],
  ["req.parts() (files streamed)", partsApp],
])("%s", (_, app) => {
  test("fileBytes: a file of exactly the limit is read; one byte more is a 413 naming the file", async () => {
    const limits = { fileBytes: 10_000 };
    expect((await send(app(limits), multipartBody([file("f", 10_000)]))).status).toBe(200);
    const body = multipartBody([field("a", "1"), file("f", 50_000)]);
    expectRefused(
      await send(app(limits), body),
      {
        error: 'the file "f" ("f.bin", part 2) is over the limit of 10000 bytes per file',
        limit: { name: "fileBytes", value: 10_000 },
        part: { index: 2, name: "f", filename: "f.bin" },
      },
      offsetOf(body, "application/octet-stream") + 10_000,
    );
  });

  test("files: the limit's number of files is read; one more is a 413 at its headers", async () => {
    const limits = { files: 2 };
    expect((await send(app(limits), multipartBody([file("a", 10), file("b", 10)]))).status).toBe(200);
    const body = multipartBody([file("a", 10), file("b", 10), file("c", 100_000)]);
    expectRefused(
      await send(app(limits), body),
      {
        error: 'the file "c" ("c.bin", part 3) is one too many: the limit is 2 files',
        limit: { name: "files", value: 2 },
        part: { index: 3, name: "c", filename: "c.bin" },
      },
      offsetOf(body, 'name="c"'),
    );
  });

  test("fields: the limit's number of fields is read; one more is a 413 at its headers", async () => {
    const limits = { fields: 3 };
    expect((await send(app(limits), multipartBody([field("a", "1"), field("b", "2"), field("c", "3")]))).status).toBe(
      200,
    );
    const body = multipartBody([field("a", "1"), field("b", "2"), field("c", "3"), field("d", "x".repeat(100_000))]);
    expectRefused(
      await send(app(limits), body),
      {
        error: 'the field "d" (part 4) is one too many: the limit is 3 fields',
        limit: { name: "fields", value: 3 },
        part: { index: 4, name: "d" },
      },
      offsetOf(body, 'name="d"'),
    );
  });

  test("fieldBytes: a value of exactly the limit is read; one byte more is a 413 naming the field", async () => {
    const limits = { fieldBytes: 1000 };
    expect((await send(app(limits), multipartBody([field("a", "é".repeat(500))]))).status).toBe(200);
    const body = multipartBody([field("a", "1"), field("big", "x".repeat(100_000))]);
    expectRefused(
      await send(app(limits), body),
      {
        error: 'the field "big" (part 2) is over the limit of 1000 bytes per field',
        limit: { name: "fieldBytes", value: 1000 },
        part: { index: 2, name: "big" },
      },
      offsetOf(body, 'name="big"') + 1000,
    );
  });

  test("headerBytes: a part's header block within the limit is read; over it, a 413 naming the part", async () => {
    const limits = { headerBytes: 1024 };
    const within = `X-Pad: ${"p".repeat(900)}`;
    const ok = multipartBody([{ headers: ['Content-Disposition: form-data; name="a"', within], content: "1" }]);
    expect((await send(app(limits), ok)).status).toBe(200);
    const over = `X-Pad: ${"p".repeat(2000)}`;
    const body = multipartBody([
      field("a", "1"),
      { headers: ['Content-Disposition: form-data; name="b"', over], content: "" },
    ]);
    expectRefused(
      await send(app(limits), body),
      {
        error: "part 2 is over the limit of 1024 bytes of part headers",
        limit: { name: "headerBytes", value: 1024 },
        part: { index: 2 },
      },
      offsetOf(body, "X-Pad") + 2000,
    );
  });

  test("headerBytes: a 1 MB header is refused at the parser's 16 KiB cap, not read whole", async () => {
    const body = multipartBody([{ headers: [`X-Huge: ${"h".repeat(1_000_000)}`], content: "" }]);
    expectRefused(
      await send(app({}), body),
      {
        error: "part 1 is over the limit of 8192 bytes of part headers",
        limit: { name: "headerBytes", value: 8192 },
        part: { index: 1 },
      },
      16 * 1024 + 100,
    );
  });

  test("parts: the limit's number of parts is read; one more is a 413 at its headers", async () => {
    const limits = { parts: 5, fields: 100 };
    const five = Array.from({ length: 5 }, (_, i) => field(`f${i}`, ""));
    expect((await send(app(limits), multipartBody(five))).status).toBe(200);
    const body = multipartBody([
      ...five,
      field("f5", ""),
      ...Array.from({ length: 5000 }, (_, i) => field(`g${i}`, "")),
    ]);
    expectRefused(
      await send(app(limits), body),
      {
        error: "part 6 is one too many: the limit is 5 parts",
        limit: { name: "parts", value: 5 },
        part: { index: 6 },
      },
      offsetOf(body, 'name="f5"'),
    );
  });

  test("totalBytes: a body of exactly the limit is read; over it, a 413 at the chunk that passes it", async () => {
    const body = multipartBody([field("a", "1"), file("f", 100_000)]);
    expect((await send(app({ totalBytes: body.byteLength }), body)).status).toBe(200);
    expectRefused(
      await send(app({ totalBytes: 20_000 }), body),
      {
        error: "the request body is larger than the limit of 20000 bytes",
        limit: { name: "totalBytes", value: 20_000 },
      },
      20_000,
    );
  });

  test("totalBytes: a declared content-length over the limit is refused before anything is read", async () => {
    const body = multipartBody([file("f", 100_000)]);
    const sent = await send(app({ totalBytes: 20_000 }), body, multipartType(), {
      "content-length": String(body.byteLength),
    });
    expectRefused(
      sent,
      {
        error: "the request body is larger than the limit of 20000 bytes",
        limit: { name: "totalBytes", value: 20_000 },
      },
      -CHUNK - 200,
    );
    expect(sent.source.bytes).toBe(0);
  });
});

describe("urlencoded bodies", () => {
  const type = "application/x-www-form-urlencoded";
  const body = (text: string) => encoder.encode(text);

  test("fields, fieldBytes and parts: at the limit read, over it a 413 naming the field", async () => {
    expect((await send(formApp({ fields: 2 }), body("a=1&b=2"), type)).status).toBe(200);
    expect((await send(formApp({ fields: 2 }), body("a=1&b=2&c=3"), type)).json).toEqual({
      error: 'the field "c" (part 3) is one too many: the limit is 2 fields',
      limit: { name: "fields", value: 2 },
      part: { index: 3, name: "c" },
    });
    expect((await send(formApp({ parts: 1 }), body("a=1&b=2"), type)).json).toMatchObject({
      limit: { name: "parts", value: 1 },
      part: { index: 2, name: "b" },
    });
    expect((await send(formApp({ fieldBytes: 4 }), body("a=%C3%A9%C3%A9"), type)).status).toBe(200);
    expect((await send(formApp({ fieldBytes: 4 }), body("a=1&b=%C3%A9%C3%A9x"), type)).json).toEqual({
      error: 'the field "b" (part 2) is over the limit of 4 bytes per field',
      limit: { name: "fieldBytes", value: 4 },
      part: { index: 2, name: "b" },
    });
  });

  test("totalBytes: stops at the chunk that passes it; a declared length over it reads nothing", async () => {
    const long = body(`a=${"x".repeat(100_000)}`);
    expectRefused(
      await send(formApp({ totalBytes: 10_000 }), long, type),
      {
        error: "the request body is larger than the limit of 10000 bytes",
        limit: { name: "totalBytes", value: 10_000 },
      },
      10_000,
    );
    const declared = await send(formApp({ totalBytes: 10_000 }), long, type, {
      "content-length": String(long.byteLength),
    });
    expect([declared.status, declared.source.bytes]).toEqual([413, 0]);
  });
});

test("a file over its limit while the handler streams it: its stream errors with the 413, which the handler throws on", async () => {
  let seen: unknown;
  const app = route("POST /", async (req) => {
    for await (const part of req.parts({ limits: { fileBytes: 1000 } })) {
      if (part.kind !== "file") continue;
      try {
        await part.stream().pipeTo(new WritableStream());
      } catch (error) {
        seen = error;
        throw error;
      }
    }
    return "no";
  });
  const sent = await send(app, multipartBody([file("f", 5000)]));
  expect(sent.status).toBe(413);
  expect(isHttpError(seen) && seen.status).toBe(413);
});

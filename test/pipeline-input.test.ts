import fc from "fast-check";
import { type BodyInput, type BodySource, interpret, pipeline, type RoutedRequest, route } from "../src";

/*
 * What `pipeline()` and `interpret()` take from a caller (src/input.ts): a header record or a reader,
 * and a body as text, bytes, a Web stream, an async iterable or a body source. The adapters hand over a
 * reader and a source themselves; these two entries make them of whatever a caller gives, so every
 * shape reads alike.
 */

const encoder = new TextEncoder();

/** The body `chunks` spell, given in each shape a caller may use. */
const shapes: Record<string, (chunks: string[]) => BodyInput | undefined> = {
  text: (chunks) => chunks.join(""),
  bytes: (chunks) => encoder.encode(chunks.join("")),
  "a Web stream": (chunks) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    }),
  "an async iterable": (chunks) =>
    (async function* () {
      yield* chunks;
    })(),
  "a body source": (chunks): BodySource => {
    const left = chunks.map((chunk) => encoder.encode(chunk));
    return { read: async () => left.shift() ?? null, stop: () => undefined };
  },
};

const echo = route("POST /", (req: RoutedRequest) => req.text());

async function textOf(body: BodyInput | undefined): Promise<string> {
  const reply = await pipeline(echo)({ method: "POST", url: "/", body });
  return reply?.body as string;
}

test("every body shape a caller may give reads as the same text, through pipeline() and interpret()", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.string({ unit: "grapheme", maxLength: 8 }), { maxLength: 6 }), async (chunks) => {
      for (const [name, make] of Object.entries(shapes)) {
        expect([name, await textOf(make(chunks))]).toEqual([name, chunks.join("")]);
        const interpreted = await interpret(echo, { method: "POST", url: "/", body: make(chunks) });
        expect([name, interpreted?.body]).toEqual([name, chunks.join("")]);
      }
    }),
    { numRuns: 60 },
  );
});

test("no body, or null, reads as empty", async () => {
  expect(await textOf(undefined)).toBe("");
  expect(await textOf(null as unknown as BodyInput)).toBe("");
});

test("a stream body no handler reads is left as it was: the reading starts with the first read", async () => {
  const stream = new ReadableStream<Uint8Array>({ pull: (controller) => controller.close() });
  const tree = route("POST /", () => "not read");
  await pipeline(tree)({ method: "POST", url: "/", body: stream });
  expect(stream.locked).toBe(false);
  await textOf(stream);
  expect(stream.locked).toBe(true);
});

test("a header record is read by any case, repeated names joined; a reader is taken as it is", async () => {
  const tree = route("GET /", (req) => [req.headers.get("X-Tag"), req.headers.get("accept"), req.headers.has("nope")]);
  const record = await pipeline(tree)({
    method: "GET",
    url: "/",
    headers: { "x-tag": "a", "X-TAG": ["b", "c"], Accept: "text/plain" },
  });
  expect(JSON.parse(record?.body as string)).toEqual(["a, b, c", "text/plain", false]);
  const headers = new Headers({ "x-tag": "web", accept: "*/*" });
  const seen: unknown[] = [];
  const reader = route("GET /", (req) => {
    seen.push(req.headers);
    return "ok";
  });
  await pipeline(reader)({ method: "GET", url: "/", headers });
  expect(seen).toEqual([headers]);
  expect(seen[0]).toBe(headers);
});

test("raw is the caller's own input object, whatever was made of its headers and body", async () => {
  const input = { method: "POST", url: "/", headers: { "content-type": "text/plain" }, body: "hi" };
  let raw: unknown;
  await pipeline(
    route("POST /", (req) => {
      raw = req.raw;
      return null;
    }),
  )(input);
  expect(raw).toBe(input);
});

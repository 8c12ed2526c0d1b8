import fc from "fast-check";
import { type FormPart, pipeline, route } from "../src/index";
import { toFetch } from "../src/adapters/fetch";
import { type BodyPart, chunked, multipartBody, multipartType, streamOf } from "./fixtures/forms-body";

/*
 * Rules that hold for all inputs:
 * - any fields and files round-trip through FormData (undici's encoder, what Node's fetch sends) and
 *   req.form() / req.parts(): names, values, file names, types and bytes, in order;
 * - a multipart body is read the same however it is cut into chunks (1 byte to all of it);
 * - any fields round-trip through URLSearchParams and an urlencoded req.form().
 */

const RUNS = 150;

/** What a handler saw, in order: [field, value] or [field, file name, type, bytes]. */
type Seen = [string, string] | [string, string, string, number[]];

async function seenOf(parts: AsyncIterable<FormPart>): Promise<Seen[]> {
  const seen: Seen[] = [];
  for await (const part of parts) {
    if (part.kind === "field") seen.push([part.field, part.value]);
    else seen.push([part.field, part.name, part.type, [...(await part.bytes())]]);
  }
  return seen;
}

const LIMITS = { limits: { totalBytes: 16 * 1024 * 1024, parts: 10_000, fields: 10_000, files: 10_000 } };

const app = toFetch(
  route("POST /", async (req) => {
    const viaParts = await seenOf(req.parts(LIMITS));
    return viaParts;
  }),
);
const formApp = toFetch(
  route("POST /", async (req) => {
    const form = await req.form(LIMITS);
    const files = await Promise.all(
      [...form.files].flatMap(([field, list]) =>
        list.map(async (f) => [field, f.name, f.type, [...(await f.bytes())]] as Seen),
      ),
    );
    return { fields: [...form.fields], files };
  }),
);

/** Any text: every code point, a lone surrogate made U+FFFD (FormData sends USVStrings). */
const text = fc
  .string({
    // any code point, with the characters a form encoding treats specially often enough to be met
    unit: fc.oneof(
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      fc.constantFrom('"', "\r", "\n", "\r\n", "%", "\\", ";", "=", " ", "-", "é", "日", "😀", "\uFEFF"),
    ),
    maxLength: 20,
  })
  .map((s) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));
/**
 * A form name: any text but the three escapes the HTML standard writes for `"`, CR and LF, which a
 * receiver cannot tell from a name that holds them literally, and but the control characters a header
 * may not hold (sent raw, they make the part's header malformed: a 400); CR and LF go as %0D and %0A.
 */
const name = text.filter(
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is left out
  (s) => !/%(22|0d|0a)/i.test(s) && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s),
);
/**
 * A file name a client may send: no directory, no control character, not `.` or `..`; not empty either,
 * as Node's FormData leaves out an empty `filename=""` (browsers send it), and then a file whose type
 * is not application/octet-stream cannot be told from a field sent with a type.
 */
const fileName = name.filter(
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is left out
  (s) => s !== "" && !/[/\\\u0000-\u001f\u007f]/.test(s) && s !== "." && s !== "..",
);
const mediaType = fc.constantFrom("application/octet-stream", "text/plain", "image/png", "application/json");

type Entry =
  | { readonly kind: "field"; readonly name: string; readonly value: string }
  | {
      readonly kind: "file";
      readonly name: string;
      readonly fileName: string;
      readonly type: string;
      readonly bytes: Uint8Array;
    };

const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ kind: fc.constant("field" as const), name, value: text }),
  fc.record({
    kind: fc.constant("file" as const),
    name,
    fileName,
    type: mediaType,
    bytes: fc.uint8Array({ maxLength: 3000 }),
  }),
);

/** FormData turns a lone CR or LF in a name or value into CRLF. */
const crlf = (s: string) => s.replace(/\r(?!\n)|(?<!\r)\n/g, "\r\n");

function formDataOf(entries: readonly Entry[]): FormData {
  const data = new FormData();
  for (const e of entries) {
    if (e.kind === "field") data.append(e.name, e.value);
    else data.append(e.name, new File([e.bytes], e.fileName, { type: e.type }));
  }
  return data;
}

function expectedOf(entries: readonly Entry[]): Seen[] {
  return entries.map((e) =>
    e.kind === "field" ? [crlf(e.name), crlf(e.value)] : [crlf(e.name), e.fileName, e.type, [...e.bytes]],
  );
}

test("any fields and files round-trip through FormData and req.parts(), in order", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(entry, { maxLength: 8 }), async (entries) => {
      const response = await app(new Request("http://localhost/", { method: "POST", body: formDataOf(entries) }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expectedOf(entries));
    }),
    { numRuns: RUNS },
  );
});

test("… and through req.form(): fields in order, files by name in order", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(entry, { maxLength: 8 }), async (entries) => {
      const response = await formApp(new Request("http://localhost/", { method: "POST", body: formDataOf(entries) }));
      const expected = expectedOf(entries);
      const byName = new Map<string, Seen[]>();
      for (const seen of expected.filter((s) => s.length === 4))
        byName.set(seen[0], [...(byName.get(seen[0]) ?? []), seen]);
      const files = [...byName.values()].flat();
      expect(await response.json()).toEqual({ fields: expected.filter((s) => s.length === 2), files });
    }),
    { numRuns: RUNS },
  );
});

test("a body is read the same however it is cut into chunks", async () => {
  const tree = route("POST /", async (req) => seenOf(req.parts(LIMITS)));
  const handle = pipeline(tree, { onError: () => undefined });
  const part: fc.Arbitrary<BodyPart> = fc.oneof(
    fc.record({ field: name, value: text }),
    fc.record({ file: name, filename: fileName, type: mediaType, content: fc.uint8Array({ maxLength: 500 }) }),
  );
  const boundary = fc.constantFrom("b", "----WebKitFormBoundary7MA4YWxkTrZu0gW", "x-y", "0123456789".repeat(7));
  await fc.assert(
    fc.asyncProperty(
      fc.array(part, { maxLength: 6 }),
      boundary,
      fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 30 }),
      async (parts, b, cuts) => {
        const body = multipartBody(parts, b);
        const whole = await handle({ method: "POST", url: "/", headers: { "content-type": multipartType(b) }, body });
        // cut at the given sizes, in turn, until the body is used up
        const chunks: Uint8Array[] = [];
        for (let at = 0, i = 0; at < body.length; i++) {
          const size = cuts[i % cuts.length]!;
          chunks.push(body.subarray(at, at + size));
          at += size;
        }
        const cut = await handle({
          method: "POST",
          url: "/",
          headers: { "content-type": multipartType(b) },
          body: streamOf(chunks),
        });
        expect(whole!.status).toBe(200);
        expect([cut!.status, cut!.body]).toEqual([200, whole!.body]);
      },
    ),
    { numRuns: RUNS },
  );
});

test("the closing '--' split between two chunks, at every position of a small body", async () => {
  const tree = route("POST /", async (req) => seenOf(req.parts()));
  const handle = pipeline(tree, { onError: () => undefined });
  const body = multipartBody(
    [
      { field: "a", value: "1" },
      { file: "f", filename: "f.txt", content: "data" },
    ],
    "XX",
  );
  for (let at = 1; at < body.length; at++) {
    const reply = await handle({
      method: "POST",
      url: "/",
      headers: { "content-type": multipartType("XX") },
      body: streamOf([body.subarray(0, at), body.subarray(at)]),
    });
    expect([at, reply!.status]).toEqual([at, 200]);
  }
  for (const size of [1, 2, 3, 5]) {
    const reply = await handle({
      method: "POST",
      url: "/",
      headers: { "content-type": multipartType("XX") },
      body: streamOf(chunked(body, size)),
    });
    expect([size, reply!.status]).toEqual([size, 200]);
  }
});

test("any fields round-trip through URLSearchParams and an urlencoded req.form()", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(text, text), { maxLength: 10 }), async (pairs) => {
      const response = await formApp(
        new Request("http://localhost/", { method: "POST", body: new URLSearchParams(pairs) }),
      );
      expect(await response.json()).toEqual({ fields: pairs, files: [] });
    }),
    { numRuns: RUNS },
  );
});

import {
  alt,
  type BodySource,
  type Form,
  formField,
  formFields,
  formFile,
  formFiles,
  type FormOptions,
  type FormPart,
  Int,
  NoParse,
  pipeline,
  type PipelineOptions,
  queryParam,
  readParams,
  readParamsAsync,
  type RequestInput,
  route,
  type RoutedRequest,
  type Route,
  UUID,
} from "../src/index";
import { byteRun, chunked, multipartBody, multipartType, streamOf } from "./fixtures/forms-body";

/*
 * Forms through the pipeline (what every adapter runs): req.parts() streams a multipart body part by
 * part, req.form() collects a multipart or urlencoded form, fields are read with the path parsers into
 * the one 400, json() and the form readers answer 415 for a type they do not read. Hostile bodies are in
 * forms.hostile.test.ts, limits in forms.limits.test.ts, real clients in forms.clients.test.ts.
 */

const encoder = new TextEncoder();
const utf8 = new TextDecoder();

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

const errors: unknown[] = [];
const quiet: PipelineOptions = { onError: (error) => void errors.push(error) };
beforeEach(() => {
  errors.length = 0;
});

/** Sends one request through the pipeline of `tree` and reads the answer (text or JSON). */
async function send(
  tree: Route,
  request: Partial<RequestInput> & { readonly body?: RequestInput["body"] },
  options: PipelineOptions = {},
): Promise<Answer> {
  const reply = await pipeline(tree, { ...quiet, ...options })({ method: "POST", url: "/", ...request });
  if (reply === null) throw new Error("no route answered");
  const body = reply.body;
  const text = typeof body === "string" ? body : body instanceof Uint8Array ? utf8.decode(body) : "";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: reply.status, text, json };
}

/** A multipart request with `parts`. */
function multipart(...parts: Parameters<typeof multipartBody>[0]): Partial<RequestInput> {
  return { headers: { "content-type": multipartType() }, body: multipartBody(parts) };
}

/** A body source over `chunks` that counts what was read and whether it was stopped. */
function countedSource(chunks: readonly Uint8Array[]): BodySource & { reads: number; bytes: number; stopped: boolean } {
  const source = {
    reads: 0,
    bytes: 0,
    stopped: false,
    read: async () => {
      if (source.stopped || source.reads >= chunks.length) return null;
      const chunk = chunks[source.reads++]!;
      source.bytes += chunk.byteLength;
      return chunk;
    },
    stop: () => {
      source.stopped = true;
    },
  };
  return source;
}

/** What a handler saw of each part: fields as they are, files with their name, type, size and text. */
async function describeParts(parts: AsyncIterable<FormPart>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const part of parts) {
    if (part.kind === "field") seen.push({ field: part.field, value: part.value });
    else {
      const text = await part.text();
      seen.push({ file: part.field, name: part.name, type: part.type, size: part.size, text });
    }
  }
  return seen;
}

const partsApp = route("POST /", async (req) => describeParts(req.parts()));

describe("req.parts(): the parts of a multipart body in order", () => {
  test("fields as text, files with their name, type and content; the size is known once read", async () => {
    const answer = await send(
      partsApp,
      multipart(
        { field: "title", value: "holiday" },
        { file: "photo", filename: "beach.jpg", type: "image/jpeg", content: "JPEG…" },
        { field: "tags", value: "sea" },
        { field: "tags", value: "sun" },
        { file: "notes", filename: "notes.txt", type: "text/plain; charset=utf-8", content: "line 1\r\nline 2" },
      ),
    );
    expect(answer).toMatchObject({
      status: 200,
      json: [
        { field: "title", value: "holiday" },
        { file: "photo", name: "beach.jpg", type: "image/jpeg", size: 7, text: "JPEG…" },
        { field: "tags", value: "sea" },
        { field: "tags", value: "sun" },
        { file: "notes", name: "notes.txt", type: "text/plain", size: 14, text: "line 1\r\nline 2" },
      ],
    });
  });

  test("a streamed file's size is known once it has all arrived, not before", async () => {
    const tree = route("POST /", async (req) => {
      for await (const part of req.parts()) {
        if (part.kind !== "file") continue;
        const before = part.size ?? "unknown";
        const length = (await part.bytes()).byteLength;
        return { before, after: part.size, length };
      }
      return "none";
    });
    const answer = await send(tree, {
      headers: { "content-type": multipartType() },
      body: streamOf(chunked(multipartBody([{ file: "f", filename: "f.bin", content: byteRun(100_000) }]), 4096)),
    });
    expect(answer.json).toEqual({ before: "unknown", after: 100_000, length: 100_000 });
  });

  test("binary content arrives byte for byte, also cut into 1-byte and odd chunks", async () => {
    const content = byteRun(70_000, 3);
    const tree = route("POST /", async (req) => {
      for await (const part of req.parts()) if (part.kind === "file") return part.bytes();
      return "none";
    });
    const body = multipartBody([{ file: "blob", filename: "blob.bin", content }]);
    for (const size of [1, 7, 1000, 65_536, body.byteLength]) {
      const reply = await pipeline(
        tree,
        quiet,
      )({
        method: "POST",
        url: "/",
        headers: { "content-type": multipartType() },
        body: streamOf(chunked(body, size)),
      });
      expect([size, reply!.status]).toEqual([size, 200]);
      expect(Buffer.from(reply!.body as Uint8Array).equals(Buffer.from(content))).toBe(true);
    }
  });

  test("an empty file (an empty file input), a file without a content-type, an unnamed one, a field with a type", async () => {
    const answer = await send(
      partsApp,
      multipart(
        { file: "none", filename: "", content: "" },
        { headers: ['Content-Disposition: form-data; name="raw"; filename="raw.bin"'], content: "x" },
        { file: "empty", filename: "empty.txt", type: "text/plain", content: "" },
        // Node's FormData leaves out an empty filename: the type still says it is a file
        {
          headers: ['Content-Disposition: form-data; name="unnamed"', "Content-Type: application/octet-stream"],
          content: "",
        },
        // curl -F 'typed=value;type=text/plain': a field with a type
        { headers: ['Content-Disposition: form-data; name="typed"', "Content-Type: text/plain"], content: "value" },
      ),
    );
    expect(answer.json).toEqual([
      { file: "none", name: "", type: "application/octet-stream", size: 0, text: "" },
      { file: "raw", name: "raw.bin", type: "application/octet-stream", size: 1, text: "x" },
      { file: "empty", name: "empty.txt", type: "text/plain", size: 0, text: "" },
      { file: "unnamed", name: "", type: "application/octet-stream", size: 0, text: "" },
      { field: "typed", value: "value" },
    ]);
  });

  test("non-ASCII names (raw UTF-8, as browsers send them; filename* of RFC 8187) and the HTML escapes %22 %0D %0A", async () => {
    const answer = await send(
      partsApp,
      multipart(
        { file: "файл", filename: "日本語 ファイル.txt", type: "text/plain", content: "a" },
        {
          headers: [
            `Content-Disposition: form-data; name="ext"; filename="fallback.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt`,
          ],
          content: "b",
        },
        { field: 'say "hi"\r\nthere', value: "quoted" },
        { file: "q", filename: 'a "quoted" name.txt', content: "c" },
      ),
    );
    expect(answer.json).toEqual([
      { file: "файл", name: "日本語 ファイル.txt", type: "text/plain", size: 1, text: "a" },
      { file: "ext", name: "€ rates.txt", type: "application/octet-stream", size: 1, text: "b" },
      { field: 'say "hi"\r\nthere', value: "quoted" },
      { file: "q", name: 'a "quoted" name.txt', type: "application/octet-stream", size: 1, text: "c" },
    ]);
  });

  test("a file name loses its directories: ../../etc/passwd is passwd, C:\\Users\\me\\a.txt is a.txt", async () => {
    const answer = await send(
      partsApp,
      multipart(
        { file: "a", filename: "../../etc/passwd", content: "" },
        { file: "b", filename: "C:\\Users\\me\\a.txt", content: "" },
        { file: "c", filename: "dir/", content: "" },
      ),
    );
    expect((answer.json as { name: string }[]).map((p) => p.name)).toEqual(["passwd", "a.txt", ""]);
  });

  test("a backslash is a character, as browsers, Node's FormData and curl write it (they send a quote as %22)", async () => {
    const answer = await send(
      partsApp,
      multipart({ headers: ['Content-Disposition: form-data; name="a\\"; filename="x\\y\\z.txt"'], content: "" }),
    );
    expect(answer.json).toMatchObject([{ file: "a\\", name: "z.txt" }]);
  });

  test("the body is pulled as the handler reads: a file is never read ahead of its reader", async () => {
    const content = byteRun(64 * 16_384);
    const body = multipartBody([
      { field: "a", value: "1" },
      { file: "big", filename: "big.bin", content },
    ]);
    const source = countedSource(chunked(body, 16_384));
    const ahead: number[] = [];
    const tree = route("POST /", async (req) => {
      let consumed = 0;
      for await (const part of req.parts({ limits: { totalBytes: Number.POSITIVE_INFINITY, fileBytes: 2 ** 21 } })) {
        if (part.kind !== "file") continue;
        const reader = part.stream().getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          consumed += r.value.byteLength;
          ahead.push(source.bytes - consumed);
        }
      }
      return { consumed };
    });
    const answer = await send(tree, { headers: { "content-type": multipartType() }, body: source });
    expect(answer.json).toEqual({ consumed: content.byteLength });
    // what was read from the body but not yet by the handler: the headers around the file, never a
    // chunk of content it has not asked for
    expect(Math.max(...ahead)).toBeLessThan(1024);
  });

  test("asking for the next part skips the rest of a file (not kept); reading the skipped file fails", async () => {
    const tree = route("POST /", async (req) => {
      const parts = req.parts();
      const first = (await parts.next()).value as FormPart;
      const second = (await parts.next()).value as FormPart;
      const late = first.kind === "file" ? await first.text().catch((error: Error) => error.message) : "";
      return { second: second.kind === "field" ? second.value : "?", late, done: (await parts.next()).done };
    });
    const answer = await send(
      tree,
      multipart({ file: "skipped", filename: "s.bin", content: byteRun(100_000) }, { field: "after", value: "ok" }),
    );
    expect(answer.json).toEqual({ second: "ok", late: expect.stringMatching(/was skipped/), done: true });
  });

  test("a file read half-way, then the next part: the read in progress fails, saying so", async () => {
    const tree = route("POST /", async (req) => {
      const parts = req.parts();
      const file = (await parts.next()).value as FormPart;
      if (file.kind !== "file") return "no file";
      const reader = file.stream().getReader();
      await reader.read();
      const next = parts.next();
      const reading = reader.read().then(
        () => "read",
        (error: Error) => error.message,
      );
      return { next: ((await next).value as FormPart).field, reading: await reading };
    });
    const answer = await send(tree, {
      headers: { "content-type": multipartType() },
      body: streamOf(
        chunked(
          multipartBody([
            { file: "f", filename: "f.bin", content: byteRun(200_000) },
            { field: "g", value: "1" },
          ]),
          8192,
        ),
      ),
    });
    expect(answer.json).toEqual({ next: "g", reading: expect.stringMatching(/not read to its end/) });
  });

  test("cancelling a file's stream skips it; the parts after it still come", async () => {
    const tree = route("POST /", async (req) => {
      const seen: string[] = [];
      for await (const part of req.parts()) {
        seen.push(part.field);
        if (part.kind === "file") await part.stream().cancel();
      }
      return seen;
    });
    const answer = await send(
      tree,
      multipart({ file: "f", filename: "f.bin", content: byteRun(50_000) }, { field: "after", value: "x" }),
    );
    expect(answer.json).toEqual(["f", "after"]);
  });

  test("leaving the loop early (break) stops the body: the rest is not read", async () => {
    const body = multipartBody([
      { field: "first", value: "1" },
      { file: "big", filename: "big.bin", content: byteRun(1_000_000) },
    ]);
    const source = countedSource(chunked(body, 4096));
    const tree = route("POST /", async (req) => {
      for await (const part of req.parts()) {
        if (part.field === "first") break;
      }
      return "left";
    });
    expect((await send(tree, { headers: { "content-type": multipartType() }, body: source })).text).toBe("left");
    expect(source.stopped).toBe(true);
    expect(source.reads).toBeLessThanOrEqual(2);
  });

  test("a file read twice: a TypeError (a 500, the handler's mistake)", async () => {
    const tree = route("POST /", async (req) => {
      for await (const part of req.parts()) {
        if (part.kind === "file") {
          await part.text();
          await part.bytes();
        }
      }
      return "no";
    });
    expect((await send(tree, multipart({ file: "f", filename: "f", content: "x" }))).status).toBe(500);
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect((errors[0] as Error).message).toMatch(/already read/);
  });

  test("the body is read once: parts() after text() (or text() after parts()) is a TypeError", async () => {
    const tree = alt(
      route("POST /text-first", async (req) => {
        await req.text();
        return describeParts(req.parts());
      }),
      route("POST /parts-first", async (req) => {
        req.parts();
        return req.text();
      }),
    );
    for (const url of ["/text-first", "/parts-first"]) {
      expect((await send(tree, { ...multipart({ field: "a", value: "1" }), url })).status).toBe(500);
    }
    expect(errors.map((e) => (e as Error).message)).toEqual([
      expect.stringMatching(/already read/),
      expect.stringMatching(/already read/),
    ]);
  });

  test("urlencoded bodies come as parts too (fields only)", async () => {
    const answer = await send(partsApp, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1&b=two+words&a=%E2%82%AC",
    });
    expect(answer.json).toEqual([
      { field: "a", value: "1" },
      { field: "b", value: "two words" },
      { field: "a", value: "€" },
    ]);
  });

  test("a field keeps a leading byte-order mark and every character (fields are exact)", async () => {
    const answer = await send(partsApp, multipart({ field: "t", value: "\uFEFFx\u0000y😀" }));
    expect(answer.json).toEqual([{ field: "t", value: "\uFEFFx\u0000y😀" }]);
  });
});

/** A handler's view of a whole form. */
async function describeForm(form: Form): Promise<unknown> {
  const files: unknown[] = [];
  for (const [field, list] of form.files) {
    for (const file of list)
      files.push({ field, name: file.name, type: file.type, size: file.size, text: await file.text() });
  }
  return { fields: [...form.fields], files };
}

describe("req.form(): the whole form", () => {
  test("multipart: fields in order, files in memory (read as often as wanted)", async () => {
    const tree = route("POST /", async (req) => {
      const form = await req.form();
      const file = formFile(form, "doc");
      const twice = [await file.text(), utf8.decode(await file.bytes())];
      const streamed = await new Response(file.stream()).text();
      return { ...((await describeForm(form)) as object), twice, streamed, same: (await req.form()) === form };
    });
    const answer = await send(
      tree,
      multipart(
        { field: "a", value: "1" },
        { file: "doc", filename: "d.txt", type: "text/plain", content: "content" },
        { field: "a", value: "2" },
      ),
    );
    expect(answer.json).toEqual({
      fields: [
        ["a", "1"],
        ["a", "2"],
      ],
      files: [{ field: "doc", name: "d.txt", type: "text/plain", size: 7, text: "content" }],
      twice: ["content", "content"],
      streamed: "content",
      same: true,
    });
  });

  test("urlencoded: + is a space, escapes are UTF-8, repeated names kept, bad escapes stay as they are", async () => {
    const tree = route("POST /", async (req) => describeForm(await req.form()));
    const answer = await send(tree, {
      headers: { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" },
      body: "name=J%C3%BCrgen+M&tag=a&tag=b&odd=%zz&empty=&=nameless&flag",
    });
    expect(answer.json).toEqual({
      fields: [
        ["name", "Jürgen M"],
        ["tag", "a"],
        ["tag", "b"],
        ["odd", "%zz"],
        ["empty", ""],
        ["", "nameless"],
        ["flag", ""],
      ],
      files: [],
    });
  });

  test("__proto__, constructor and prototype are field and file names like any other; nothing is polluted", async () => {
    const tree = route("POST /", async (req) => {
      const form = await req.form();
      return {
        proto: formField(form, "__proto__"),
        ctor: formFields(form, "constructor"),
        file: formFile(form, "prototype").name,
        polluted: ({} as Record<string, unknown>)["polluted"] ?? null,
      };
    });
    const answer = await send(
      tree,
      multipart(
        { field: "__proto__", value: '{"polluted":true}' },
        { field: "constructor", value: "c" },
        { file: "prototype", filename: "p.txt", content: "p" },
      ),
    );
    expect(answer.json).toEqual({ proto: '{"polluted":true}', ctor: ["c"], file: "p.txt", polluted: null });
  });

  test("empty forms: an urlencoded body with nothing, a multipart body with no part", async () => {
    const tree = route("POST /", async (req) => describeForm(await req.form()));
    expect(
      (await send(tree, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" })).json,
    ).toEqual({ fields: [], files: [] });
    expect((await send(tree, { headers: { "content-type": multipartType("b") }, body: "--b--\r\n" })).json).toEqual({
      fields: [],
      files: [],
    });
  });
});

class Slug {
  static parseUrlPiece(piece: string): Slug | typeof NoParse {
    return /^[a-z-]+$/.test(piece) ? new Slug(piece) : NoParse;
  }
  static toUrlPiece(slug: Slug): string {
    return slug.value;
  }
  constructor(readonly value: string) {}
}

describe("form fields read with the path parsers, into the one 400", () => {
  const ID = "0b1e7f70-4f4a-4c4e-9d7b-6d0d6c8e2a11";
  const tree = route("POST /", async (req) => {
    const form = await req.form();
    const [count, id, slug, note, tags] = readParams(req, [
      () => formField(form, "count", Int),
      () => formField(form, "id", UUID),
      () => formField(form, "slug", Slug),
      () => formField(form, "note", undefined, { optional: true }),
      () => formFields(form, "tag", Int),
    ]);
    return { count, id, slug: slug.value, note: note ?? null, tags };
  });

  test("good values parse: Int, UUID (lower-cased), a newtype, an optional field, a repeated one", async () => {
    const answer = await send(tree, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `count=007&id=${ID.toUpperCase()}&slug=a-b&tag=1&tag=-2`,
    });
    expect(answer.json).toEqual({ count: 7, id: ID, slug: "a-b", note: null, tags: [1, -2] });
  });

  test("every bad or missing field is listed in one 400, multipart as urlencoded", async () => {
    const expected = {
      status: 400,
      json: {
        error: expect.any(String),
        errors: [
          { in: "body", field: "count", constraint: "Int", message: '"5.0" is not a valid Int' },
          { in: "body", field: "id", constraint: "required", message: 'the form field "id" is required (UUID)' },
          { in: "body", field: "slug", constraint: "Slug", message: '"A B" is not a valid Slug' },
          { in: "body", field: "tag", constraint: "Int", message: '"x" is not a valid Int' },
        ],
      },
    };
    expect(
      await send(tree, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "count=5.0&slug=A+B&tag=1&tag=x",
      }),
    ).toMatchObject(expected);
    expect(
      await send(
        tree,
        multipart(
          { field: "count", value: "5.0" },
          { field: "slug", value: "A B" },
          { field: "tag", value: "1" },
          { field: "tag", value: "x" },
        ),
      ),
    ).toMatchObject(expected);
  });

  test("query parameters and form fields fail together (readParamsAsync over the request)", async () => {
    const both = route("POST /", async (req) => {
      const [page, title] = await readParamsAsync(req, [
        (r: RoutedRequest) => queryParam(r, "page", Int),
        async (r: RoutedRequest) => formField(await r.form(), "title"),
      ]);
      return { page, title };
    });
    const answer = await send(both, {
      url: "/?page=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "other=1",
    });
    expect(answer.status).toBe(400);
    expect((answer.json as { errors: { field: string; in: string }[] }).errors).toEqual([
      expect.objectContaining({ in: "query", field: "page" }),
      expect.objectContaining({ in: "body", field: "title", constraint: "required" }),
    ]);
  });

  test("files: formFile (required unless optional), formFiles (all, in order)", async () => {
    const files = route("POST /", async (req) => {
      const form = await req.form();
      return {
        many: formFiles(form, "many").map((f) => f.name),
        none: formFiles(form, "none"),
        optional: formFile(form, "missing", { optional: true }) ?? null,
        field: formFile(form, "text", { optional: true }) ?? null,
      };
    });
    const answer = await send(
      files,
      multipart(
        { file: "many", filename: "1.txt", content: "" },
        { field: "text", value: "a field is no file" },
        { file: "many", filename: "2.txt", content: "" },
      ),
    );
    expect(answer.json).toEqual({ many: ["1.txt", "2.txt"], none: [], optional: null, field: null });
    const required = route("POST /", async (req) => formFile(await req.form(), "avatar").name);
    expect(await send(required, multipart({ field: "avatar", value: "not a file" }))).toMatchObject({
      status: 400,
      json: {
        error: 'the file "avatar" is required',
        errors: [
          { in: "body", field: "avatar", constraint: "required", message: 'the file "avatar" is required (file)' },
        ],
      },
    });
  });
});

describe("415: a reader answers for the content types it reads", () => {
  const tree = alt(
    route("POST /json", async (req) => ({ got: await req.json() })),
    route("POST /json-strict", async (req) => ({ got: await req.json({ accept: "json" }) })),
    route("POST /json-any", async (req) => ({ got: await req.json({ accept: "any" }) })),
    route("POST /json-bad-option", async (req) => ({ got: await req.json({ accept: "yes" as never }) })),
    route("POST /form", async (req) => describeForm(await req.form())),
    route("POST /parts", async (req) => describeParts(req.parts())),
  );
  const json = (type: string | undefined, url = "/json") => ({
    url,
    headers: type === undefined ? {} : { "content-type": type },
    body: '{"a":1}',
  });

  test.each([
    ["no content-type", undefined],
    ["application/json", "application/json"],
    ["application/json; charset=utf-8", "application/json; charset=utf-8"],
    ["any case", "Application/JSON"],
    ["a +json type", "application/problem+json"],
    ["text/plain (what fetch gives a string body)", "text/plain;charset=UTF-8"],
  ])("json() reads %s", async (_, type) => {
    expect(await send(tree, json(type))).toMatchObject({ status: 200, json: { got: { a: 1 } } });
  });

  test.each([
    ["application/x-www-form-urlencoded"],
    ["multipart/form-data; boundary=x"],
    ["application/octet-stream"],
    ["text/html"],
    ["application/jsonx"],
    ["not a type"],
  ])("json() answers 415 for %s, saying what it reads", async (type) => {
    const answer = await send(tree, json(type));
    expect(answer).toMatchObject({
      status: 415,
      json: {
        error: `json() reads application/json or application/*+json or text/plain bodies; its content-type is ${JSON.stringify(type)}`,
        contentType: type,
        accepted: ["application/json", "application/*+json", "text/plain"],
      },
    });
  });

  test("json({ accept: 'json' }) refuses text/plain too; accept: 'any' reads a form-encoded body as JSON", async () => {
    expect(await send(tree, json("text/plain", "/json-strict"))).toMatchObject({
      status: 415,
      json: { accepted: ["application/json", "application/*+json"] },
    });
    expect(await send(tree, json("application/json", "/json-strict"))).toMatchObject({ status: 200 });
    expect(await send(tree, json(undefined, "/json-strict"))).toMatchObject({ status: 200 });
    expect(await send(tree, json("application/x-www-form-urlencoded", "/json-any"))).toMatchObject({
      status: 200,
      json: { got: { a: 1 } },
    });
  });

  test("a bad accept option is the route's mistake: a TypeError, a 500", async () => {
    expect((await send(tree, json("application/json", "/json-bad-option"))).status).toBe(500);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  test.each([["/form"], ["/parts"]])("%s answers 415 for a missing, JSON or text content-type", async (url) => {
    for (const type of [undefined, "application/json", "text/plain", "multipart/mixed; boundary=x"]) {
      const answer = await send(tree, {
        url,
        headers: type === undefined ? {} : { "content-type": type },
        body: "a=1",
      });
      expect(answer).toMatchObject({
        status: 415,
        json: { contentType: type ?? null, accepted: ["multipart/form-data", "application/x-www-form-urlencoded"] },
      });
    }
  });
});

describe("form options", () => {
  const withOptions = (options: FormOptions) => route("POST /", async (req) => describeForm(await req.form(options)));

  test.each([
    [{ limits: { files: -1 } }, /limits\.files must be a number ≥ 0/],
    [{ limits: { fileBytes: Number.NaN } }, /limits\.fileBytes must be a number ≥ 0/],
    [{ limits: { parts: "10" as unknown as number } }, /limits\.parts must be a number ≥ 0/],
    [{ limits: { headerBytes: 20_000 } }, /headerBytes is at most 16384/],
    [{ limits: { maxFiles: 1 } as unknown as FormOptions["limits"] }, /unknown limit "maxFiles"/],
  ])("a bad limit is the route's mistake: a RangeError naming it (%j)", async (options, message) => {
    expect((await send(withOptions(options), multipart({ field: "a", value: "1" }))).status).toBe(500);
    expect(errors[0]).toBeInstanceOf(RangeError);
    expect((errors[0] as Error).message).toMatch(message);
  });

  test("Infinity and 0 are limits", async () => {
    const answer = await send(
      withOptions({ limits: { totalBytes: Number.POSITIVE_INFINITY, files: 0 } }),
      multipart({ field: "a", value: "1" }),
    );
    expect(answer.json).toEqual({ fields: [["a", "1"]], files: [] });
  });

  test("totalBytes defaults to the pipeline's bodyLimit", async () => {
    const body = multipartBody([{ field: "a", value: "x".repeat(200) }]);
    const tree = withOptions({});
    expect((await send(tree, { headers: { "content-type": multipartType() }, body }, { bodyLimit: 100 })).status).toBe(
      413,
    );
    expect((await send(tree, { headers: { "content-type": multipartType() }, body }, { bodyLimit: 1000 })).status).toBe(
      200,
    );
  });
});

test("a text body still reads as before: no content-type rule for text() and bytes()", async () => {
  const tree = route("POST /", async (req) => req.text());
  expect(
    (
      await send(tree, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: encoder.encode("a=1"),
      })
    ).text,
  ).toBe("a=1");
});

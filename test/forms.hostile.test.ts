import fc from "fast-check";
import { type FormPart, pipeline, type PipelineOptions, type RequestInput, route } from "../src/index";
import { toApplication } from "../src/adapters/node";
import { eventually, openFds } from "./helpers/eventually";
import { startServer, type TestServer } from "./helpers/server";
import { byteRun, chunked, multipartBody, multipartType, streamOf } from "./fixtures/forms-body";

/*
 * Hostile multipart bodies: a missing, malformed or wrong boundary, a boundary inside the data, an
 * unterminated body, 10,000 empty parts, a 1 MB part header, header folding, file names with ../ and
 * NUL, duplicates, __proto__ names, random bytes. Each gets a 4xx (or is read as the RFC says), nothing
 * crashes, nothing is polluted, nothing is super-linear, and over real sockets the file descriptors
 * and memory come back to where they were.
 */

const encoder = new TextEncoder();
const errors: unknown[] = [];
const options: PipelineOptions = { onError: (error) => void errors.push(error) };
beforeEach(() => {
  errors.length = 0;
});

async function describeParts(parts: AsyncIterable<FormPart>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const part of parts) {
    seen.push(part.kind === "field" ? [part.field, part.value] : [part.field, part.name, (await part.bytes()).length]);
  }
  return seen;
}

const app = route("POST /", async (req) =>
  describeParts(req.parts({ limits: { parts: 100_000, fields: 100_000, totalBytes: 64 * 1024 * 1024 } })),
);

interface Answer {
  readonly status: number;
  readonly json: { error?: string; reason?: string; part?: unknown; limit?: unknown } & unknown[];
}

async function send(
  body: Uint8Array | string,
  type: string | undefined = multipartType("b"),
  size?: number,
): Promise<Answer> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const input: RequestInput = {
    method: "POST",
    url: "/",
    headers: type === undefined ? {} : { "content-type": type },
    body: size === undefined ? bytes : streamOf(chunked(bytes, size)),
  };
  const reply = await pipeline(app, options)(input);
  return { status: reply!.status, json: JSON.parse(reply!.body as string) };
}

/** A body with boundary `b` whose parts are written by hand. */
const raw = (...lines: string[]) => lines.join("\r\n");

describe("the boundary", () => {
  test("missing from the content-type: 400", async () => {
    expect(await send("--b--\r\n", "multipart/form-data")).toMatchObject({
      status: 400,
      json: { error: "the multipart/form-data content-type has no boundary parameter", reason: "boundary" },
    });
  });

  test.each([
    ["71 characters", "x".repeat(71)],
    ["a character RFC 2046 does not allow", "a;b"],
    ["ending in a space", '"ab "'],
    ["empty", '""'],
  ])("malformed (%s): 400", async (_, boundary) => {
    const answer = await send("--x--\r\n", `multipart/form-data; boundary=${boundary}`);
    expect(answer.status).toBe(400);
    expect(answer.json.reason).toBe("boundary");
  });

  test("70 characters, quoted, with spaces and every other character it may have: read", async () => {
    const boundary = `'()+_,-./:=? ${"z".repeat(57)}`;
    const body = multipartBody([{ field: "a", value: "1" }], boundary);
    expect(await send(body, `multipart/form-data; boundary="${boundary}"`)).toEqual({
      status: 200,
      json: [["a", "1"]],
    });
  });

  test("the body uses another boundary: 400, no part", async () => {
    const answer = await send(multipartBody([{ field: "a", value: "1" }], "other"));
    expect(answer).toMatchObject({ status: 400, json: { reason: "boundary" } });
    expect(answer.json.error).toMatch(/the body has no part/);
  });

  test("the boundary inside the data, not after a line break: data, byte for byte", async () => {
    const content = encoder.encode("x--b --b--\r\n\n--b\r--b--\n--b");
    const answer = await send(multipartBody([{ file: "f", filename: "f", content }], "b"));
    expect(answer).toEqual({ status: 200, json: [["f", "f", content.length]] });
  });

  test("a delimiter inside the data (CRLF --boundary and more): the data ends there, and what follows is no part: 400", async () => {
    const answer = await send(
      raw("--b", 'Content-Disposition: form-data; name="a"', "", "x", "--bjunk", "y", "--b--", ""),
    );
    expect(answer.status).toBe(400);
  });

  test("a preamble before the first boundary and an epilogue after the last are not read (RFC 2046)", async () => {
    const body = `preamble\r\n${raw("--b", 'Content-Disposition: form-data; name="a"', "", "1", "--b--")}\r\nepilogue\r\n--b\r\nContent-Disposition: form-data; name="late"\r\n\r\nno\r\n--b--\r\n`;
    expect(await send(body)).toEqual({ status: 200, json: [["a", "1"]] });
  });
});

describe("broken bodies: 400", () => {
  test.each([
    ["empty", ""],
    ["a closing boundary never comes", raw("--b", 'Content-Disposition: form-data; name="a"', "", "value")],
    ["cut in a part's headers", "--b\r\nContent-Disposition: form-da"],
    ["cut right after a boundary", "--b"],
    ["LF line ends instead of CRLF", '--b\nContent-Disposition: form-data; name="a"\n\n1\n--b--\n'],
  ])("%s", async (_, body) => {
    const answer = await send(body);
    expect(answer.status).toBe(400);
    expect(typeof answer.json.error).toBe("string");
  });

  test("an unterminated body names the part it ends in", async () => {
    const body = multipartBody(
      [
        { field: "a", value: "1" },
        { file: "f", filename: "f.bin", content: "xyz" },
      ],
      "b",
      {
        unterminated: true,
      },
    );
    expect(await send(body)).toMatchObject({
      status: 400,
      json: {
        error: 'the file "f" ("f.bin", part 2): the body ends before the closing boundary',
        reason: "unterminated",
        part: { index: 2, name: "f", filename: "f.bin" },
      },
    });
  });

  test.each([
    ["header folding (a line that starts with a space)", ["Content-Disposition: form-data;", ' name="a"']],
    ["a header line with no colon", ['Content-Disposition: form-data; name="a"', "garbage"]],
    ["no Content-Disposition", ["Content-Type: text/plain"]],
    [
      "two Content-Disposition headers",
      ['Content-Disposition: form-data; name="a"', 'Content-Disposition: form-data; name="b"'],
    ],
    ["a Content-Disposition that is not form-data", ['Content-Disposition: attachment; name="a"']],
    ["no name", ['Content-Disposition: form-data; filename="a.txt"']],
    ["a name given twice", ['Content-Disposition: form-data; name="a"; name="b"']],
    ["an unterminated quoted name", ['Content-Disposition: form-data; name="a']],
    ["a filename* that is not RFC 8187", ['Content-Disposition: form-data; name="a"; filename*=UTF-8\'%E2%82']],
    ["a filename* whose escapes are not UTF-8", ["Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''%FF"]],
    [
      "a filename* in ISO-8859-1 (the parser decodes its escapes as UTF-8)",
      ["Content-Disposition: form-data; name=\"a\"; filename*=iso-8859-1''caf%E9"],
    ],
    ["a NUL in a file name", ['Content-Disposition: form-data; name="f"; filename="../../etc/passwd\u0000.png"']],
    ["a file name %0A-escaped to a line break", ['Content-Disposition: form-data; name="f"; filename="a%0Ab.txt"']],
    ["a file name that is ..", ['Content-Disposition: form-data; name="f"; filename="../.."']],
  ])("%s: 400 naming the part", async (_, headers) => {
    const body = raw(
      "--b",
      'Content-Disposition: form-data; name="first"',
      "",
      "ok",
      "--b",
      ...headers,
      "",
      "x",
      "--b--",
      "",
    );
    const answer = await send(body);
    expect(answer.status).toBe(400);
    expect(answer.json.part).toMatchObject({ index: 2 });
  });

  test("a raw NUL or other control character in a header: the header is malformed", async () => {
    const answer = await send(
      raw("--b", 'Content-Disposition: form-data; name="f"; filename="a\u0000b"', "", "", "--b--", ""),
    );
    expect(answer.json).toMatchObject({ reason: "headers", part: { index: 1 } });
  });

  test("an escaped one (filename*, %0A) is refused by the file name check, which names it", async () => {
    const answer = await send(
      raw("--b", "Content-Disposition: form-data; name=\"f\"; filename*=UTF-8''a%00b", "", "", "--b--", ""),
    );
    expect(answer.json).toEqual({
      error: 'the field "f" (part 1): its file name has a control character (U+0000)',
      reason: "filename",
      part: { index: 1, name: "f" },
    });
    const lineBreak = await send(
      raw("--b", 'Content-Disposition: form-data; name="f"; filename="a%0Ab"', "", "", "--b--", ""),
    );
    expect(lineBreak.json.error).toMatch(/control character \(U\+000A\)/);
  });
});

describe("duplicates and odd names are data", () => {
  test("repeated names, empty names, __proto__: every part kept, in order; no prototype touched", async () => {
    const answer = await send(
      multipartBody(
        [
          { field: "a", value: "1" },
          { field: "a", value: "2" },
          { field: "", value: "nameless" },
          { field: "__proto__", value: '{"polluted":1}' },
          { file: "__proto__", filename: "__proto__", content: "p" },
          { headers: ['Content-Disposition: form-data; name="h"', "__proto__: x", "constructor: y"], content: "3" },
        ],
        "b",
      ),
    );
    expect(answer).toEqual({
      status: 200,
      json: [
        ["a", "1"],
        ["a", "2"],
        ["", "nameless"],
        ["__proto__", '{"polluted":1}'],
        ["__proto__", "__proto__", 1],
        ["h", "3"],
      ],
    });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("x");
  });

  test("invalid UTF-8 in a name becomes U+FFFD; nothing throws", async () => {
    const head = encoder.encode('--b\r\nContent-Disposition: form-data; name="');
    const tail = encoder.encode('"\r\n\r\nv\r\n--b--\r\n');
    const body = new Uint8Array([...head, 0xff, 0xfe, ...tail]);
    expect(await send(body)).toEqual({ status: 200, json: [["\uFFFD\uFFFD", "v"]] });
  });
});

describe("nothing is super-linear", () => {
  const emptyParts = (n: number) => {
    let body = "";
    for (let i = 0; i < n; i++) body += '--b\r\nContent-Disposition: form-data; name="e"\r\n\r\n\r\n';
    return encoder.encode(`${body}--b--\r\n`);
  };

  /** The fastest of three runs, in ms. */
  async function timed(run: () => Promise<unknown>): Promise<number> {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      await run();
      best = Math.min(best, performance.now() - start);
    }
    return best;
  }

  test("10,000 empty parts: 413 at the default parts limit, before the rest is read", async () => {
    const limited = route("POST /", async (req) => describeParts(req.parts()));
    const reply = await pipeline(
      limited,
      options,
    )({
      method: "POST",
      url: "/",
      headers: { "content-type": multipartType("b") },
      body: emptyParts(10_000),
    });
    expect(reply!.status).toBe(413);
    expect(JSON.parse(reply!.body as string)).toMatchObject({
      limit: { name: "parts", value: 1000 },
      part: { index: 1001 },
    });
  });

  test("10,000 and 40,000 empty parts with the limits raised: all read, time grows linearly", async () => {
    const small = emptyParts(10_000);
    const large = emptyParts(40_000);
    const answer = await send(large, multipartType("b"), 65_536);
    expect([answer.status, answer.json.length]).toEqual([200, 40_000]);
    const t10 = await timed(() => send(small, multipartType("b"), 65_536));
    const t40 = await timed(() => send(large, multipartType("b"), 65_536));
    // linear is 4×; quadratic would be 16×
    expect(t40 / t10).toBeLessThan(9);
  }, 30_000);

  test("a file cut into 3-byte chunks: time grows linearly with its size (64 KiB, then 256 KiB)", async () => {
    const body = (size: number) => multipartBody([{ file: "f", filename: "f", content: byteRun(size) }], "b");
    const t1 = await timed(() => send(body(64 * 1024), multipartType("b"), 3));
    const t4 = await timed(() => send(body(256 * 1024), multipartType("b"), 3));
    expect(t4 / t1).toBeLessThan(9);
  }, 30_000);

  test("a 16 KiB header cut into 1-byte chunks is refused in linear time", async () => {
    const header = (size: number) => raw("--b", `X-Pad: ${"h".repeat(size)}`, "", "", "--b--", "");
    const t1 = await timed(() => send(header(4000), multipartType("b"), 1));
    const t4 = await timed(() => send(header(16_000), multipartType("b"), 1));
    expect(t4 / t1).toBeLessThan(9);
  }, 30_000);
});

describe("random bytes never crash the reader", () => {
  test("any body, any chunking: 200, 400 or 413, never a 500", async () => {
    const parts = fc.array(
      fc.oneof(
        fc.constantFrom(
          "--b",
          "--b--",
          "\r\n",
          "\r",
          "\n",
          "--",
          "-",
          'Content-Disposition: form-data; name="a"',
          'filename="x"',
          ":",
          " ",
          ";",
          '"',
        ),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 40 },
    );
    await fc.assert(
      fc.asyncProperty(parts, fc.integer({ min: 1, max: 64 }), async (pieces, size) => {
        const answer = await send(pieces.join(""), multipartType("b"), size);
        expect([200, 400, 413]).toContain(answer.status);
      }),
      { numRuns: 400 },
    );
    expect(errors.filter((e) => !(e instanceof Error && "status" in e))).toEqual([]);
  });
});

describe("over real sockets, descriptors and memory come back", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(toApplication(app, options));
  });
  afterAll(() => server.close());

  const hostile: [string, Uint8Array | string][] = [
    ["wrong boundary", multipartBody([{ field: "a", value: "1" }], "zz")],
    [
      "unterminated",
      multipartBody([{ file: "f", filename: "f", content: byteRun(100_000) }], "b", { unterminated: true }),
    ],
    ["1 MB header", raw("--b", `X-Huge: ${"h".repeat(1_000_000)}`, "", "", "--b--", "")],
    ["folding", raw("--b", "Content-Disposition: form-data;", ' name="a"', "", "x", "--b--", "")],
    [
      "NUL file name",
      raw("--b", 'Content-Disposition: form-data; name="f"; filename="../\u0000"', "", "", "--b--", ""),
    ],
    [
      "70 MiB, over totalBytes (64 MiB)",
      multipartBody([{ file: "f", filename: "f", content: byteRun(70 * 1024 * 1024) }], "b"),
    ],
  ];

  test("each hostile body over HTTP: a 4xx, and the server goes on", async () => {
    for (const [name, body] of hostile) {
      const response = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": multipartType("b") },
        body,
      });
      expect([name, response.status >= 400 && response.status < 500]).toEqual([name, true]);
      await response.arrayBuffer();
    }
    const ok = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": multipartType("b") },
      body: multipartBody([{ field: "a", value: "1" }], "b"),
    });
    expect(await ok.json()).toEqual([["a", "1"]]);
  });

  test("100 rounds of them: descriptors back to the start, heap within a few MB", async () => {
    const small = hostile.slice(0, 5);
    const round = async () => {
      for (const [, body] of small) {
        const response = await fetch(server.url, {
          method: "POST",
          headers: { "content-type": multipartType("b") },
          body,
        });
        await response.arrayBuffer();
      }
    };
    await round();
    globalThis.gc?.();
    const fds = openFds();
    const heap = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++) await round();
    globalThis.gc?.();
    expect(await eventually(openFds, (n) => n <= fds)).toBeLessThanOrEqual(fds);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(32 * 1024 * 1024);
  }, 60_000);
});

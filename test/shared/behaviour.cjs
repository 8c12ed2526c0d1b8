"use strict";
/*
 * The shared behaviour table: one app and one list of request → expected-reply cases, written once and
 * run through every adapter and runtime (test/adapters.table.test.ts: inject, node:http, the Fetch
 * handler on Node, Express, Koa; test/runtimes.test.ts: Bun, Deno, workerd). All of them must give the
 * same answers.
 *
 * Plain CommonJS with no imports, so that every runtime loads it as it is: the app is built from the
 * library's exports object handed in (`createApp(lib)`), whichever build of the package that is.
 *
 * Left out on purpose, because the runtimes legitimately differ there:
 * - dot segments (`/a/../hello`): a Fetch runtime's URL parser resolves them before the handler sees
 *   the request, while node:http, Express, Koa and inject pass the target through as sent;
 * - a backslash, a space or a non-ASCII character sent raw in the target: `fetch` and `Request`
 *   percent-encode or rewrite them (`\` becomes `/`), a raw node:http request carries them as they are;
 * - a status from 600 to 999: node:http sends it, but a Fetch `Response` cannot carry it (the Fetch
 *   adapter answers 500);
 * - lower-case method names: `fetch` upper-cases the standard ones (`get` → `GET`) and no other;
 * - how much of a body cut in the middle arrives: node:http and Bun cut before the status line went
 *   out, Deno, Koa and the Fetch handler after it, so a case says only `cut` (and its status holds
 *   when one arrived);
 * - the content of a 500 that Express or Koa make themselves: the table's options give `onError`, so
 *   every adapter answers errors the same way (without it, Express and Koa hand errors to the
 *   framework: test/adapters.frameworks.test.ts).
 *
 * And two runtimes answer a case otherwise, checked as they do it in test/runtimes.test.ts: Bun's server
 * adds `content-type: application/octet-stream` to a byte body without one, and workerd ends a body
 * that fails mid-way cleanly instead of cutting the connection.
 */

/** The most bytes `bytes()`/`text()`/`json()` read in the table app (smaller than the default, so 413s are cheap). */
const BODY_LIMIT = 1024;

const encoder = new TextEncoder();

/** `length` bytes counting up from `from` (mod 256): recognisable binary data, every byte value. */
function byteRun(length, from = 0) {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (from + i) % 256;
  return bytes;
}

/** A 256 KiB reply streamed in 64 chunks: more than one socket write, so back-pressure is exercised. */
const LARGE_CHUNKS = 64;
const LARGE_CHUNK = 4096;

/** A Web ReadableStream over the given chunks (anything: the non-byte cases enqueue non-bytes). */
function webStream(chunks) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

/** The secret the table's signed cookie is signed with (what `SIGNED_UID` was computed with). */
const COOKIE_SECRET = "the shared table secret, 32 bytes or more";
/** `uid=7` signed with `COOKIE_SECRET`: the value, a dot, and its base64url HMAC-SHA256 of `uid=7`. */
const SIGNED_UID = "7.zR5XwVISKpgOpuytKVk6oXiiey2O1b5_zIX4zdnKW8c";

/** The table app: a route tree built with the library's own functions. */
function createApp(lib) {
  const { alt, guard, HttpError, Int, method, path, pathEnd, pathVar, reply, routeMismatch, text, Text } = lib;
  const { cookie, cookieParam, cookieSigner, deleteCookie, forbidden, queryParam, redirect, refuse } = lib;
  const { signedCookieParam, unauthorized, withCookies } = lib;
  const signer = cookieSigner(COOKIE_SECRET);
  const get = (literal, handler) => method("GET", path(literal, pathEnd(handler)));
  const post = (literal, handler) => method("POST", path(literal, pathEnd(handler)));
  return alt(
    get("/hello", () => "hello"),
    method(
      "GET",
      path(
        "/users",
        pathVar(
          "id",
          Int,
          pathEnd((req) => ({ id: req.vars.id })),
        ),
      ),
    ),
    method(
      "GET",
      path(
        "/names",
        pathVar(
          "name",
          Text,
          pathEnd((req) => ({ name: req.vars.name })),
        ),
      ),
    ),
    method(
      "GET",
      path("/rest", (req) => ({ path: req.path, rest: req.rest })),
    ),
    get("/query", (req) => ({ entries: [...req.query.entries()] })),
    get("/header", (req) => ({
      value: req.headers.get("X-Test"),
      has: req.headers.has("x-TEST"),
      missing: req.headers.get("x-missing"),
    })),
    get("/mismatch", async () => routeMismatch()),
    get("/mismatch", () => "second alternative"),
    guard(
      (req) => req.headers.get("x-admin") === "yes",
      get("/admin", () => "admin"),
    ),
    get("/admin", () => "not admin"),
    method(
      "HEAD",
      path(
        "/head",
        pathEnd(() => reply({ headers: { "x-head": "yes" }, body: "not sent on a HEAD" })),
      ),
    ),
    method(
      "HEAD",
      path(
        "/head-stream",
        pathEnd(() => reply({ headers: { "x-head": "stream" }, body: webStream([encoder.encode("not sent")]) })),
      ),
    ),
    method(
      "PURGE",
      path(
        "/cache",
        pathEnd(() => "purged"),
      ),
    ),
    get("/big-number", () => ({ n: 2n ** 63n - 1n })),

    // cookies, redirects, guards that answer
    get("/cookies/set", () =>
      text("set", {
        cookies: [
          cookie("a", "1", { path: "/", httpOnly: true }),
          cookie("b", "x.y", { sameSite: "Lax", maxAge: 60 }),
          deleteCookie("old", { path: "/" }),
        ],
      }),
    ),
    get("/cookies/read", (req) => ({ n: cookieParam(req, "n", Int) })),
    get("/cookies/all", (req) => ({
      size: req.cookies.size,
      proto: req.cookies.get("__proto__"),
      quoted: req.cookies.get("q"),
    })),
    get("/cookies/signed", async (req) => ({ uid: await signedCookieParam(req, "uid", signer, Int) })),
    get("/query/int", (req) => ({ n: queryParam(req, "n", Int) })),
    get("/redirect", () => redirect("/hello", 303)),
    get("/redirect/cookies", () => withCookies(redirect("/hello"), [cookie("sid", "abc", { httpOnly: true })])),
    method(
      "GET",
      path(
        "/refused",
        pathEnd(
          guard(
            (req) => req.headers.has("authorization") || refuse(unauthorized('Bearer realm="table"')),
            () => "let in",
          ),
        ),
      ),
    ),
    method(
      "GET",
      path(
        "/forbidden",
        pathEnd(
          guard(
            () => refuse(forbidden("not for you")),
            () => "never",
          ),
        ),
      ),
    ),

    // errors
    get("/throw", () => {
      throw new Error("secret detail");
    }),
    get("/reject", async () => {
      await Promise.resolve();
      throw new Error("secret detail");
    }),
    get("/teapot", () => {
      throw new HttpError(418, "short and stout", { headers: { "x-reason": "tea" }, details: { pot: "little" } });
    }),
    method(
      "GET",
      path(
        "/guarded",
        guard(
          () => {
            throw new HttpError(401, "who are you?", { headers: { "www-authenticate": "Bearer" } });
          },
          pathEnd(() => "never"),
        ),
      ),
    ),
    get("/unavailable", () => {
      throw new HttpError(503, "the database password is hunter2");
    }),
    get("/answered-error", () => {
      throw new Error("answer me");
    }),
    get("/status-500", () => text("a handler's own 500", { status: 500 })),

    // replies: status, headers, bytes, nothing
    get("/created", () =>
      reply({ status: 201, headers: { "x-custom": "yes", location: "/users/7" }, body: "created" }),
    ),
    get("/cookies", () =>
      text("cookies", { headers: { "set-cookie": ["a=1; Path=/", "b=2; HttpOnly"], vary: ["accept", "origin"] } }),
    ),
    get("/bytes", () => reply({ headers: { "content-type": "application/x-bin" }, body: byteRun(256, 250) })),
    get("/bytes/plain", () => new Uint8Array([0, 1, 2, 127, 128, 254, 255])),
    get("/nothing", () => undefined),
    get("/empty-ok", () => reply({ headers: { "x-empty": "yes" } })),
    get("/no-content-body", () => reply({ status: 204, headers: { "x-kept": "yes" }, body: "dropped" })),
    get("/no-content-stream", () => reply({ status: 204, body: webStream([encoder.encode("dropped")]) })),
    get("/not-modified", () => reply({ status: 304, headers: { etag: '"v1"' }, body: "dropped" })),

    // streamed replies
    get("/stream/web", () => webStream([encoder.encode("web "), encoder.encode("stream "), encoder.encode("ok")])),
    get("/stream/iterable", () =>
      reply({
        headers: { "content-type": "text/plain; charset=utf-8" },
        body: (async function* () {
          yield "it";
          yield encoder.encode("er");
          yield "able";
        })(),
      }),
    ),
    get("/stream/binary", () => webStream([new Uint8Array([0, 255]), new Uint8Array([128, 0, 10])])),
    get("/stream/large", () =>
      (async function* () {
        for (let i = 0; i < LARGE_CHUNKS; i++) yield byteRun(LARGE_CHUNK, i);
      })(),
    ),
    get("/stream/empty", () => webStream([])),
    get(
      "/stream/fail-early",
      () =>
        new ReadableStream({
          pull() {
            throw new Error("the disk is gone");
          },
        }),
    ),
    get("/stream/fail-early-iterable", () =>
      // biome-ignore lint/correctness/useYield: an iterable that fails before its first chunk
      (async function* () {
        await Promise.resolve();
        throw new Error("the disk is gone");
      })(),
    ),
    get("/stream/non-byte", () =>
      (async function* () {
        yield 42;
      })(),
    ),
    get("/stream/non-byte-web", () => webStream([{ not: "bytes" }])),
    get("/stream/cut", () =>
      (async function* () {
        yield "first,";
        throw new Error("mid-way");
      })(),
    ),
    get("/stream/cut-non-byte", () => webStream([encoder.encode("first,"), 7])),

    // request bodies
    post("/echo/json", async (req) => ({ got: await req.json() })),
    post("/echo/text", async (req) => text(await req.text())),
    post("/echo/bytes", async (req) =>
      reply({ headers: { "content-type": "application/octet-stream" }, body: await req.bytes() }),
    ),
    post("/echo/length", async (req) => ({ length: (await req.bytes()).byteLength })),
    post("/echo/stream", (req) =>
      reply({ headers: { "content-type": "application/octet-stream" }, body: req.stream() }),
    ),

    // server-sent events (issue 25)
    ...sseRoutes(lib, get, post),

    // middleware and CORS (issue 23)
    ...middlewareRoutes(lib, get),

    // uploads and forms (issue 25)
    ...formRoutes(lib, post),

    // bodies validated with a Standard Schema (issue 24)
    ...schemaRoutes(lib, post),

    // response contracts and hostile replies (issue 24)
    ...contractRoutes(lib, get),
  );
}

/** Routes that read forms (issue 25): multipart parts streamed and whole, urlencoded, a limit, typed fields. */
function formRoutes(lib, post) {
  const { formField, Int, readParams, reply } = lib;
  // the table's bodyLimit (1 KiB) is every form's totalBytes unless a route raises it
  const UPLOADS = { limits: { totalBytes: 1024 * 1024 } };
  return [
    post("/form/parts", async (req) => {
      const seen = [];
      for await (const part of req.parts(UPLOADS)) {
        if (part.kind === "field") seen.push({ field: part.field, value: part.value });
        else seen.push({ file: part.field, name: part.name, type: part.type, bytes: Array.from(await part.bytes()) });
      }
      return seen;
    }),
    post("/form/whole", async (req) => {
      const form = await req.form(UPLOADS);
      const files = [];
      for (const [field, list] of form.files) {
        for (const file of list) files.push({ file: field, name: file.name, size: file.size, text: await file.text() });
      }
      return { fields: Array.from(form.fields), files };
    }),
    post("/form/echo-file", async (req) => {
      for await (const part of req.parts(UPLOADS)) {
        if (part.kind === "file")
          return reply({ headers: { "content-type": "application/octet-stream" }, body: await part.bytes() });
      }
      return reply({ status: 422 });
    }),
    post("/form/limited", async (req) => {
      await req.form({ limits: { fileBytes: 100 } });
      return "read";
    }),
    post("/form/typed", async (req) => {
      const form = await req.form();
      const [n, when] = readParams(req, [() => formField(form, "n", Int), () => formField(form, "when", Int)]);
      return { n, when };
    }),
  ];
}

/**
 * A multipart/form-data body as a browser writes it: each part a `[name, value]` field or a
 * `{ name, filename, type, content }` file; closed with `--boundary--` unless `closed` is false.
 */
function formBody(boundary, parts, closed = true) {
  const chunks = [];
  for (const part of parts) {
    const head = Array.isArray(part)
      ? `Content-Disposition: form-data; name="${part[0]}"`
      : `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}`;
    const content = Array.isArray(part) ? part[1] : part.content;
    chunks.push(encoder.encode(`--${boundary}\r\n${head}\r\n\r\n`));
    chunks.push(typeof content === "string" ? encoder.encode(content) : content);
    chunks.push(encoder.encode("\r\n"));
  }
  if (closed) chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/** The boundary Chrome and Safari write, and the content-type that names it. */
const FORM_BOUNDARY = "----WebKitFormBoundaryx7Gq2LpTmE0c9ZbA";
const FORM_TYPE = `multipart/form-data; boundary=${FORM_BOUNDARY}`;
/** A browser's form: text fields (one repeated), a photo, and a file input left empty. */
const BROWSER_FORM = formBody(FORM_BOUNDARY, [
  ["title", "Holiday ✓"],
  { name: "photo", filename: "beach.png", type: "image/png", content: byteRun(300, 100) },
  ["tags", "sea"],
  ["tags", "sun"],
  { name: "notes", filename: "", type: "application/octet-stream", content: "" },
]);
const BROWSER_FORM_SEEN = [
  { field: "title", value: "Holiday ✓" },
  { file: "photo", name: "beach.png", type: "image/png", bytes: Array.from(byteRun(300, 100)) },
  { field: "tags", value: "sea" },
  { field: "tags", value: "sun" },
  { file: "notes", name: "", type: "application/octet-stream", bytes: [] },
];

/** Routes under middlewares (nested, short-circuiting, mapping errors, answering a 404) and under CORS. */
function middlewareRoutes(lib, get) {
  const { alt, cors, HttpError, json, match, route, use } = lib;
  /** Adds `name` to the reply's `x-mw` header on the way out. */
  const tag = (name) => async (_req, next) => {
    const answer = await next();
    if (answer === null) return null;
    const seen = answer.headers["x-mw"];
    return { ...answer, headers: { ...answer.headers, "x-mw": seen === undefined ? name : `${seen},${name}` } };
  };
  return [
    match(
      "/mw",
      use(
        tag("outer"),
        alt(
          use(
            tag("inner"),
            get("/hello", () => "inner"),
          ),
          match(
            "/blocked",
            use(
              () => json({ blocked: true }, { status: 403 }),
              get("/never", () => "never"),
            ),
          ),
          use(
            async (_req, next) => {
              try {
                return await next();
              } catch (error) {
                return json({ mapped: error.message }, { status: 418 });
              }
            },
            get("/fails", () => {
              throw new HttpError(409, "conflict inside");
            }),
          ),
          use(
            async (req, next) => {
              const answer = await next();
              return answer === null
                ? answer
                : { ...answer, headers: { ...answer.headers, "x-route": req.route.pattern } };
            },
            route("GET /route/id:Int", (req) => ({ pattern: req.route.pattern, template: req.route.template })),
          ),
          use(
            async (req, next) => (await next()) ?? json({ nothing: req.path }, { status: 404 }),
            get("/other", () => "x"),
          ),
        ),
      ),
    ),
    match(
      "/cors",
      cors(
        { origin: ["https://app.example"], credentials: true, exposeHeaders: ["X-Total"], maxAge: 600 },
        alt(
          route("GET /items/id:Int", (req) => ({ id: req.vars.id })),
          route("DELETE /items/id:Int", () => undefined),
          route("POST /items", () => {
            throw new HttpError(400, "invalid item");
          }),
        ),
      ),
    ),
  ];
}

/** The SSE routes of the table: finite streams, so that every client reads them whole. */
function sseRoutes(lib, get, post) {
  const { lastEventId, sse, sseChannel } = lib;
  return [
    get("/sse/events", () =>
      sse(
        ["plain", { event: "multi", id: "1", data: sseHostileData() }, { comment: "a comment" }, { id: "2", data: "" }],
        { retry: 1500 },
      ),
    ),
    get("/sse/resume", (req) => {
      const after = Number(lastEventId(req) ?? 0);
      return sse([after + 1, after + 2].map((n) => ({ id: String(n), data: `event ${n}` })));
    }),
    post("/sse/jobs", async (req) => {
      const { steps } = await req.json();
      return sse(
        (async function* () {
          for (let i = 1; i <= steps; i++) yield { event: "progress", id: String(i), data: `${i}/${steps}` };
        })(),
      );
    }),
    get("/sse/channel", () =>
      sse(
        sseChannel((channel) => {
          channel.send("pushed");
          setTimeout(() => {
            channel.send({ event: "later", data: "x" });
            channel.close();
          }, 1);
        }),
      ),
    ),
    get("/sse/big", () => sse([{ event: "big", data: sseBigData() }])),
    get("/sse/throws-before", () =>
      sse(
        // biome-ignore lint/correctness/useYield: a producer that fails before its first event
        (async function* () {
          await Promise.resolve();
          throw new Error("the feed is down");
        })(),
      ),
    ),
    get("/sse/bad-event", () => sse([{ event: "x\ndata: forged", data: "y" }])),
    get("/sse/bad-id", () => sse([{ id: "1\u00002", data: "y" }])),
  ];
}

/** Data with CR, LF and CR LF mixed: each is a line break to the client. */
function sseHostileData() {
  return "1\r\n2\n\r3\r\r4\n\n5\r\n\r\n6\r";
}

/** The headers of every SSE reply. */
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" };

/** A 1 MiB data field, its lines ending in CR LF. */
function sseBigData() {
  return `${"x".repeat(1022)}\r\n`.repeat(1024);
}

/**
 * The table app's options. `onError` answers one error with a reply of its own and lets the others
 * take the standard answer (an `HttpError`'s status, else a generic 500), on every adapter alike; it
 * also keeps the expected errors out of the test log. The opt-in `methodNotAllowed` and `head` are on
 * (`fallback: methodFallbacks(…)`), so their answers (405 with `Allow`, HEAD by the GET route) are
 * checked on every adapter and runtime; their default (off: 404) is checked through every Node adapter in test/routes.pipeline.test.ts.
 */
function createOptions(lib) {
  return {
    bodyLimit: BODY_LIMIT,
    fallback: lib.methodFallbacks({ methodNotAllowed: true, head: true }),
    onError: (error) =>
      error instanceof Error && error.message === "answer me" ? lib.json({ custom: true }, { status: 422 }) : undefined,
  };
}

const TEXT = "text/plain; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";
const BYTES = "application/octet-stream";
const INTERNAL = { status: 500, headers: { "content-type": TEXT }, text: "Internal Server Error" };
const NOT_FOUND = { status: 404, text: "" };

function largeBody() {
  const out = new Uint8Array(LARGE_CHUNKS * LARGE_CHUNK);
  for (let i = 0; i < LARGE_CHUNKS; i++) out.set(byteRun(LARGE_CHUNK, i), i * LARGE_CHUNK);
  return out;
}

/**
 * The cases. `request`: method (GET unless given), target, headers, body (text or bytes), `streamed`
 * (the body is sent as a stream, chunked, where the client can: inject has no content-length anyway). Expected:
 * `status`; `headers` (each must be there with that value; repeated ones joined with ", ");
 * `absent` (header names that must not be there); `setCookie` (the set-cookie values, in order);
 * exactly one of `text` (the whole body as UTF-8), `json` (the body parsed), `bytes`, `errorMatching`
 * (a JSON body whose `error` matches: parser messages differ between JavaScript engines), or
 * `cut: true` (the headers arrive, then the body fails: the server cut the connection).
 */
const cases = [
  // routing
  { name: "a static route", request: { url: "/hello" }, status: 200, headers: { "content-type": TEXT }, text: "hello" },
  {
    name: "a captured Int",
    request: { url: "/users/42" },
    status: 200,
    headers: { "content-type": JSON_TYPE },
    json: { id: 42 },
  },
  {
    name: "a percent-encoded Text segment is decoded",
    request: { url: "/names/caf%C3%A9%20au%20lait" },
    status: 200,
    json: { name: "café au lait" },
  },
  {
    name: "rest and the raw path (an encoded slash does not split)",
    request: { url: "/rest/a%2Fb/c?x=1" },
    status: 200,
    json: { path: "/rest/a%2Fb/c", rest: ["a/b", "c"] },
  },
  {
    name: "the query, repeated keys kept in order",
    request: { url: "/query?a=1&b=two%20words&a=3" },
    status: 200,
    json: {
      entries: [
        ["a", "1"],
        ["b", "two words"],
        ["a", "3"],
      ],
    },
  },
  {
    name: "request headers, read in any case",
    request: { url: "/header", headers: { "X-Test": "abc" } },
    status: 200,
    json: { value: "abc", has: true, missing: null },
  },
  {
    name: "routeMismatch() passes to the next alternative",
    request: { url: "/mismatch" },
    status: 200,
    text: "second alternative",
  },
  {
    name: "a guard that says yes",
    request: { url: "/admin", headers: { "x-admin": "yes" } },
    status: 200,
    text: "admin",
  },
  { name: "a guard that says no falls through", request: { url: "/admin" }, status: 200, text: "not admin" },
  {
    name: "a HEAD route answers without a body",
    request: { method: "HEAD", url: "/head" },
    status: 200,
    headers: { "x-head": "yes" },
    text: "",
  },
  {
    name: "a HEAD route with a streamed body answers without it",
    request: { method: "HEAD", url: "/head-stream" },
    status: 200,
    headers: { "x-head": "stream" },
    text: "",
  },
  { name: "an extension method", request: { method: "PURGE", url: "/cache" }, status: 200, text: "purged" },
  {
    name: "a bigint written as an exact JSON number",
    request: { url: "/big-number" },
    status: 200,
    text: '{"n":9223372036854775807}',
  },
  { name: "no route: 404, empty", request: { url: "/nowhere" }, ...NOT_FOUND },

  // cookies, redirects, guards that answer
  {
    name: "cookies set through a reply: one set-cookie header each, in order",
    request: { url: "/cookies/set" },
    status: 200,
    setCookie: [
      "a=1; Path=/; HttpOnly",
      "b=x.y; Max-Age=60; SameSite=Lax",
      "old=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0",
    ],
    text: "set",
  },
  {
    name: "a cookie read with a parser (the first of duplicates)",
    request: { url: "/cookies/read", headers: { cookie: "x=1; n=42; n=7" } },
    status: 200,
    json: { n: 42 },
  },
  {
    name: "a cookie the parser refuses: 400 naming it",
    request: { url: "/cookies/read", headers: { cookie: "n=4.2" } },
    status: 400,
    headers: { "content-type": JSON_TYPE },
    json: {
      error: 'the cookie "n" is not a valid Int',
      errors: [{ in: "cookie", field: "n", constraint: "Int", message: '"4.2" is not a valid Int' }],
    },
  },
  {
    name: "a missing cookie: 400 naming it",
    request: { url: "/cookies/read" },
    status: 400,
    json: {
      error: 'the cookie "n" is required',
      errors: [{ in: "cookie", field: "n", constraint: "required", message: 'the cookie "n" is required (Int)' }],
    },
  },
  {
    name: "req.cookies: prototype names are only names, quotes dropped, malformed pairs ignored",
    request: { url: "/cookies/all", headers: { cookie: '__proto__=p; constructor=c; q="quoted"; junk; =x' } },
    status: 200,
    json: { size: 3, proto: "p", quoted: "quoted" },
  },
  {
    name: "a signed cookie verified with Web Crypto",
    request: { url: "/cookies/signed", headers: { cookie: `uid=${SIGNED_UID}` } },
    status: 200,
    json: { uid: 7 },
  },
  {
    name: "a signed cookie tampered with: 400",
    request: { url: "/cookies/signed", headers: { cookie: `uid=8${SIGNED_UID.slice(1)}` } },
    status: 400,
    json: {
      error: 'the cookie "uid" has no valid signature',
      errors: [
        {
          in: "cookie",
          field: "uid",
          constraint: "signature",
          message:
            'the cookie "uid" has no valid signature (unsigned, changed, or signed with a secret no longer accepted)',
        },
      ],
    },
  },
  {
    name: "a bad query parameter: 400 with the errors list, as JSON",
    request: { url: "/query/int?n=x" },
    status: 400,
    headers: { "content-type": JSON_TYPE },
    json: {
      error: 'the query parameter "n" is not a valid Int',
      errors: [{ in: "query", field: "n", constraint: "Int", message: '"x" is not a valid Int' }],
    },
  },
  {
    name: "a redirect: its status and Location, no body",
    request: { url: "/redirect" },
    status: 303,
    headers: { location: "/hello" },
    text: "",
  },
  {
    name: "a redirect with a cookie",
    request: { url: "/redirect/cookies" },
    status: 302,
    headers: { location: "/hello" },
    setCookie: ["sid=abc; HttpOnly"],
    text: "",
  },
  {
    name: "a guard that answers 401 with WWW-Authenticate",
    request: { url: "/refused" },
    status: 401,
    headers: { "www-authenticate": 'Bearer realm="table"', "content-type": JSON_TYPE },
    json: { error: "Unauthorized" },
  },
  {
    name: "the same guard lets a request with credentials in",
    request: { url: "/refused", headers: { authorization: "Bearer x" } },
    status: 200,
    text: "let in",
  },
  {
    name: "a guard that answers 403",
    request: { url: "/forbidden" },
    status: 403,
    json: { error: "not for you" },
  },
  { name: "an Int that does not parse: 404", request: { url: "/users/abc" }, ...NOT_FOUND },
  {
    name: "the wrong method: 405 with the methods that answer (methodNotAllowed)",
    request: { method: "POST", url: "/hello" },
    status: 405,
    headers: { allow: "GET, HEAD" },
    text: "",
  },
  {
    name: "an extension method's path under GET: 405",
    request: { url: "/cache" },
    status: 405,
    headers: { allow: "PURGE" },
    text: "",
  },
  {
    name: "HEAD on a GET route: the GET's headers, no body (head)",
    request: { method: "HEAD", url: "/hello" },
    status: 200,
    headers: { "content-type": TEXT },
    text: "",
  },
  {
    // the GET route sees the HEAD's headers: its reply's length is the one a GET with them gets
    name: "HEAD on a GET route: the GET route reads the request's headers (head)",
    request: { method: "HEAD", url: "/header", headers: { "X-Test": "a longer value" } },
    status: 200,
    headers: {
      "content-type": JSON_TYPE,
      "content-length": String(JSON.stringify({ value: "a longer value", has: true, missing: null }).length),
    },
    text: "",
  },
  {
    name: "a path no method routes stays 404 with methodNotAllowed",
    request: { method: "DELETE", url: "/nowhere" },
    ...NOT_FOUND,
  },
  { name: "a trailing slash is a segment of its own: 404", request: { url: "/hello/" }, ...NOT_FOUND },
  { name: "an extra segment: 404", request: { url: "/hello/extra" }, ...NOT_FOUND },
  {
    name: "GET on a HEAD-only route: 405, Allow: HEAD",
    request: { url: "/head" },
    status: 405,
    headers: { allow: "HEAD" },
    text: "",
  },

  // errors
  { name: "a throwing handler: a generic 500", request: { url: "/throw" }, ...INTERNAL },
  { name: "a rejecting handler: a generic 500", request: { url: "/reject" }, ...INTERNAL },
  {
    name: "an HttpError from a handler: its status, headers and JSON body",
    request: { url: "/teapot" },
    status: 418,
    headers: { "content-type": JSON_TYPE, "x-reason": "tea" },
    json: { error: "short and stout", pot: "little" },
  },
  {
    name: "an HttpError from a guard",
    request: { url: "/guarded" },
    status: 401,
    headers: { "www-authenticate": "Bearer" },
    json: { error: "who are you?" },
  },
  {
    name: "a 5xx HttpError keeps its message to itself",
    request: { url: "/unavailable" },
    status: 503,
    json: { error: "Service Unavailable" },
  },
  {
    name: "onError answers with its own reply",
    request: { url: "/answered-error" },
    status: 422,
    json: { custom: true },
  },
  {
    name: "a handler's own 500 is sent as it is",
    request: { url: "/status-500" },
    status: 500,
    text: "a handler's own 500",
  },

  // replies
  {
    name: "status and headers of a reply; no content-type invented",
    request: { url: "/created" },
    status: 201,
    headers: { "x-custom": "yes", location: "/users/7" },
    absent: ["content-type"],
    text: "created",
  },
  {
    name: "set-cookie values stay apart; other repeated headers join",
    request: { url: "/cookies" },
    status: 200,
    headers: { vary: "accept, origin" },
    setCookie: ["a=1; Path=/", "b=2; HttpOnly"],
    text: "cookies",
  },
  {
    name: "a binary body, every byte value",
    request: { url: "/bytes" },
    status: 200,
    headers: { "content-type": "application/x-bin" },
    bytes: byteRun(256, 250),
  },
  {
    name: "bytes returned as they are",
    request: { url: "/bytes/plain" },
    status: 200,
    headers: { "content-type": BYTES },
    bytes: new Uint8Array([0, 1, 2, 127, 128, 254, 255]),
  },
  { name: "undefined: 204", request: { url: "/nothing" }, status: 204, text: "" },
  {
    name: "a 200 without a body stays a 200",
    request: { url: "/empty-ok" },
    status: 200,
    headers: { "x-empty": "yes" },
    text: "",
  },
  {
    name: "a 204 drops its body, keeps its headers",
    request: { url: "/no-content-body" },
    status: 204,
    headers: { "x-kept": "yes" },
    text: "",
  },
  { name: "a 204 drops a streamed body", request: { url: "/no-content-stream" }, status: 204, text: "" },
  {
    name: "a 304 drops its body, keeps its headers",
    request: { url: "/not-modified" },
    status: 304,
    headers: { etag: '"v1"' },
    text: "",
  },

  // streamed replies
  {
    name: "a ReadableStream body",
    request: { url: "/stream/web" },
    status: 200,
    headers: { "content-type": BYTES },
    text: "web stream ok",
  },
  {
    name: "an async-iterable body of strings and bytes",
    request: { url: "/stream/iterable" },
    status: 200,
    headers: { "content-type": TEXT },
    text: "iterable",
  },
  {
    name: "a binary stream",
    request: { url: "/stream/binary" },
    status: 200,
    bytes: new Uint8Array([0, 255, 128, 0, 10]),
  },
  { name: "a 256 KiB stream in 64 chunks", request: { url: "/stream/large" }, status: 200, bytes: largeBody() },
  { name: "an empty stream", request: { url: "/stream/empty" }, status: 200, text: "" },
  {
    name: "a ReadableStream that fails before its first byte: 500",
    request: { url: "/stream/fail-early" },
    ...INTERNAL,
  },
  {
    name: "an iterable that fails before its first byte: 500",
    request: { url: "/stream/fail-early-iterable" },
    ...INTERNAL,
  },
  { name: "a non-byte first chunk (a number): 500", request: { url: "/stream/non-byte" }, ...INTERNAL },
  {
    name: "a non-byte first chunk (an object, ReadableStream): 500",
    request: { url: "/stream/non-byte-web" },
    ...INTERNAL,
  },
  {
    name: "a stream that fails mid-way: the connection is cut",
    request: { url: "/stream/cut" },
    status: 200,
    cut: true,
  },
  {
    name: "a non-byte chunk mid-way: the connection is cut",
    request: { url: "/stream/cut-non-byte" },
    status: 200,
    cut: true,
  },

  // request bodies
  {
    name: "a JSON body",
    request: {
      method: "POST",
      url: "/echo/json",
      headers: { "content-type": "application/json" },
      body: '{"a":[1,2],"b":"ü"}',
    },
    status: 200,
    json: { got: { a: [1, 2], b: "ü" } },
  },
  {
    name: "malformed JSON: 400 saying so",
    request: { method: "POST", url: "/echo/json", headers: { "content-type": "application/json" }, body: '{"a":' },
    status: 400,
    headers: { "content-type": JSON_TYPE },
    errorMatching: /^request body is not valid JSON: /,
  },
  {
    name: "an empty JSON body: 400",
    request: { method: "POST", url: "/echo/json" },
    status: 400,
    json: { error: "request body is empty; expected JSON" },
  },
  {
    name: "invalid UTF-8 becomes U+FFFD",
    request: { method: "POST", url: "/echo/text", body: new Uint8Array([0x61, 0xff, 0x62]) },
    status: 200,
    text: "a\uFFFDb",
  },
  {
    name: "a leading byte-order mark is dropped",
    request: { method: "POST", url: "/echo/text", body: "\uFEFFhi" },
    status: 200,
    text: "hi",
  },
  {
    name: "a binary body read back, every byte value",
    request: { method: "POST", url: "/echo/bytes", body: byteRun(256) },
    status: 200,
    bytes: byteRun(256),
  },
  {
    name: "a body of exactly bodyLimit bytes",
    request: { method: "POST", url: "/echo/length", body: byteRun(BODY_LIMIT) },
    status: 200,
    json: { length: BODY_LIMIT },
  },
  {
    name: "one byte over bodyLimit: 413",
    request: { method: "POST", url: "/echo/length", body: byteRun(BODY_LIMIT + 1) },
    status: 413,
    json: { error: `request body is larger than the limit of ${BODY_LIMIT} bytes` },
  },
  {
    name: "text over bodyLimit: 413",
    request: { method: "POST", url: "/echo/text", body: "x".repeat(4 * BODY_LIMIT) },
    status: 413,
    json: { error: `request body is larger than the limit of ${BODY_LIMIT} bytes` },
  },
  {
    name: "a streamed body (no content-length) within bodyLimit",
    request: { method: "POST", url: "/echo/length", body: byteRun(BODY_LIMIT), streamed: true },
    status: 200,
    json: { length: BODY_LIMIT },
  },
  {
    name: "a streamed body (no content-length) over bodyLimit: 413",
    request: { method: "POST", url: "/echo/length", body: byteRun(3 * BODY_LIMIT), streamed: true },
    status: 413,
    json: { error: `request body is larger than the limit of ${BODY_LIMIT} bytes` },
  },
  {
    name: "stream() is not limited",
    request: { method: "POST", url: "/echo/stream", body: byteRun(5 * BODY_LIMIT) },
    status: 200,
    bytes: byteRun(5 * BODY_LIMIT),
  },

  // server-sent events (issue 25)
  {
    name: "SSE: the headers, the retry first, multi-line data split at CR, LF and CR LF, a comment, ids",
    request: { url: "/sse/events" },
    status: 200,
    headers: SSE_HEADERS,
    absent: ["content-encoding"],
    text:
      "retry: 1500\ndata: plain\n\n" +
      "event: multi\nid: 1\n" +
      "data: 1\ndata: 2\ndata: \ndata: 3\ndata: \ndata: 4\ndata: \ndata: 5\ndata: \ndata: 6\ndata: \n\n" +
      ": a comment\n\n" +
      "id: 2\ndata: \n\n",
  },
  {
    name: "SSE: a first connection (no Last-Event-ID)",
    request: { url: "/sse/resume" },
    status: 200,
    headers: SSE_HEADERS,
    text: "id: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\n",
  },
  {
    name: "SSE: Last-Event-ID reaches the handler, which resumes after it",
    request: { url: "/sse/resume", headers: { "Last-Event-ID": "41" } },
    status: 200,
    headers: SSE_HEADERS,
    text: "id: 42\ndata: event 42\n\nid: 43\ndata: event 43\n\n",
  },
  {
    name: "SSE: a POST with a JSON body answered with events",
    request: { method: "POST", url: "/sse/jobs", headers: { "content-type": "application/json" }, body: '{"steps":2}' },
    status: 200,
    headers: SSE_HEADERS,
    text: "event: progress\nid: 1\ndata: 1/2\n\nevent: progress\nid: 2\ndata: 2/2\n\n",
  },
  {
    name: "SSE: the push form (sseChannel), closed after two events",
    request: { url: "/sse/channel" },
    status: 200,
    headers: SSE_HEADERS,
    text: "data: pushed\n\nevent: later\ndata: x\n\n",
  },
  {
    name: "SSE: a 1 MiB data field, whole",
    request: { url: "/sse/big" },
    status: 200,
    headers: SSE_HEADERS,
    bytes: encoder.encode(`event: big\n${`data: ${"x".repeat(1022)}\n`.repeat(1024)}data: \n\n`),
  },
  {
    name: "SSE: HEAD answers the headers, no body (the producer never starts)",
    request: { method: "HEAD", url: "/sse/events" },
    status: 200,
    headers: SSE_HEADERS,
    text: "",
  },
  {
    name: "SSE: a producer that throws before its first event: a 500",
    request: { url: "/sse/throws-before" },
    ...INTERNAL,
  },
  {
    name: "SSE: an event type with a line break is refused, nothing of it sent: a 500",
    request: { url: "/sse/bad-event" },
    ...INTERNAL,
  },
  { name: "SSE: an id with NUL is refused: a 500", request: { url: "/sse/bad-id" }, ...INTERNAL },

  // middleware (issue 23)
  {
    name: "middleware: nested, outermost first, each sees the reply on the way out",
    request: { url: "/mw/hello" },
    status: 200,
    headers: { "x-mw": "inner,outer" },
    text: "inner",
  },
  {
    name: "middleware: one that never calls next() answers for every path below it",
    request: { url: "/mw/blocked/anything/at/all" },
    status: 403,
    headers: { "x-mw": "outer" },
    json: { blocked: true },
  },
  {
    name: "middleware: an error inside rejects next(), and the middleware maps it",
    request: { url: "/mw/fails" },
    status: 418,
    json: { mapped: "conflict inside" },
  },
  {
    name: "middleware: req.route names the answering route, for its handler and after next()",
    request: { url: "/mw/route/7" },
    status: 200,
    headers: { "x-route": "GET /mw/route/id:Int", "x-mw": "outer" },
    json: { pattern: "GET /mw/route/id:Int", template: "/mw/route/{id}" },
  },
  {
    name: "middleware: nothing inside answers, next() is null and the middleware answers the 404 itself",
    request: { url: "/mw/missing" },
    status: 404,
    json: { nothing: "/mw/missing" },
  },

  // CORS (issue 23)
  {
    name: "CORS: a preflight lists the methods the tree accepts for the path",
    request: {
      method: "OPTIONS",
      url: "/cors/items/5",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "DELETE",
        "access-control-request-headers": "content-type",
      },
    },
    status: 204,
    headers: {
      "access-control-allow-origin": "https://app.example",
      "access-control-allow-methods": "GET, DELETE",
      "access-control-allow-headers": "content-type",
      "access-control-allow-credentials": "true",
      "access-control-max-age": "600",
      vary: "Origin, Access-Control-Request-Headers",
    },
    text: "",
  },
  {
    name: "CORS: a preflight for a path nothing routes is no success",
    request: {
      method: "OPTIONS",
      url: "/cors/nothing",
      headers: { origin: "https://app.example", "access-control-request-method": "GET" },
    },
    status: 404,
    absent: ["access-control-allow-origin"],
    text: "",
  },
  {
    name: "CORS: a preflight from an origin not allowed: 403",
    request: {
      method: "OPTIONS",
      url: "/cors/items/5",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    },
    status: 403,
    absent: ["access-control-allow-origin"],
    errorMatching: "may not make this request",
  },
  {
    name: "CORS: an actual request from an allowed origin",
    request: { url: "/cors/items/5", headers: { origin: "https://app.example" } },
    status: 200,
    headers: {
      "access-control-allow-origin": "https://app.example",
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "X-Total",
      vary: "Origin",
    },
    json: { id: 5 },
  },
  {
    name: "CORS: a client error keeps its JSON and the CORS headers",
    request: { method: "POST", url: "/cors/items", headers: { origin: "https://app.example" } },
    status: 400,
    headers: { "access-control-allow-origin": "https://app.example", vary: "Origin" },
    json: { error: "invalid item" },
  },

  // uploads and forms (issue 25)
  {
    name: "multipart: a browser's form, its fields and files in order, byte for byte",
    request: { method: "POST", url: "/form/parts", headers: { "content-type": FORM_TYPE }, body: BROWSER_FORM },
    status: 200,
    json: BROWSER_FORM_SEEN,
  },
  {
    name: "multipart: the same form streamed (chunked, no content-length)",
    request: {
      method: "POST",
      url: "/form/parts",
      headers: { "content-type": FORM_TYPE },
      body: BROWSER_FORM,
      streamed: true,
    },
    status: 200,
    json: BROWSER_FORM_SEEN,
  },
  {
    name: "multipart: non-ASCII names in UTF-8 (RFC 7578), a quote sent as %22, a directory dropped",
    request: {
      method: "POST",
      url: "/form/parts",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body: formBody("b", [
        ["имя", "значение"],
        ["say %22hi%22", "quoted"],
        { name: "файл", filename: "日本語 ファイル.txt", type: "text/plain", content: "✓" },
        { name: "up", filename: "../../etc/passwd", type: "text/plain", content: "" },
      ]),
    },
    status: 200,
    json: [
      { field: "имя", value: "значение" },
      { field: 'say "hi"', value: "quoted" },
      { file: "файл", name: "日本語 ファイル.txt", type: "text/plain", bytes: [0xe2, 0x9c, 0x93] },
      { file: "up", name: "passwd", type: "text/plain", bytes: [] },
    ],
  },
  {
    name: "multipart: a 64 KiB file of every byte value, echoed byte for byte",
    request: {
      method: "POST",
      url: "/form/echo-file",
      headers: { "content-type": FORM_TYPE },
      body: formBody(FORM_BOUNDARY, [
        ["before", "x"],
        { name: "blob", filename: "blob.bin", type: "application/octet-stream", content: byteRun(65_536, 7) },
      ]),
    },
    status: 200,
    bytes: byteRun(65_536, 7),
  },
  {
    name: "req.form(): a multipart form's fields and files",
    request: { method: "POST", url: "/form/whole", headers: { "content-type": FORM_TYPE }, body: BROWSER_FORM },
    status: 200,
    json: {
      fields: [
        ["title", "Holiday ✓"],
        ["tags", "sea"],
        ["tags", "sun"],
      ],
      files: [
        { file: "photo", name: "beach.png", size: 300, text: new TextDecoder().decode(byteRun(300, 100)) },
        { file: "notes", name: "", size: 0, text: "" },
      ],
    },
  },
  {
    name: "req.form(): an urlencoded form (+ is a space, escapes are UTF-8, repeats kept)",
    request: {
      method: "POST",
      url: "/form/whole",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1&b=two+words&c=%E2%9C%93&a=2&__proto__=x",
    },
    status: 200,
    json: {
      fields: [
        ["a", "1"],
        ["b", "two words"],
        ["c", "✓"],
        ["a", "2"],
        ["__proto__", "x"],
      ],
      files: [],
    },
  },
  {
    name: "json() on a form-encoded body: 415",
    request: {
      method: "POST",
      url: "/echo/json",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    },
    status: 415,
    json: {
      error:
        'json() reads application/json or application/*+json or text/plain bodies; its content-type is "application/x-www-form-urlencoded"',
      contentType: "application/x-www-form-urlencoded",
      accepted: ["application/json", "application/*+json", "text/plain"],
    },
  },
  {
    name: "json() on a multipart body: 415",
    request: { method: "POST", url: "/echo/json", headers: { "content-type": FORM_TYPE }, body: BROWSER_FORM },
    status: 415,
    errorMatching: /^json\(\) reads /,
  },
  {
    name: "req.form() on a JSON body: 415",
    request: {
      method: "POST",
      url: "/form/whole",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    },
    status: 415,
    json: {
      error:
        'req.form() reads multipart/form-data or application/x-www-form-urlencoded bodies; its content-type is "application/json"',
      contentType: "application/json",
      accepted: ["multipart/form-data", "application/x-www-form-urlencoded"],
    },
  },
  {
    name: "a file over its limit: 413 naming the part and the limit",
    request: {
      method: "POST",
      url: "/form/limited",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body: formBody("b", [
        ["a", "1"],
        { name: "f", filename: "f.bin", type: "application/octet-stream", content: byteRun(200) },
      ]),
    },
    status: 413,
    json: {
      error: 'the file "f" ("f.bin", part 2) is over the limit of 100 bytes per file',
      limit: { name: "fileBytes", value: 100 },
      part: { index: 2, name: "f", filename: "f.bin" },
    },
  },
  {
    name: "a form over bodyLimit (totalBytes by default): 413",
    request: {
      method: "POST",
      url: "/form/typed",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `n=1&when=2&pad=${"x".repeat(2 * BODY_LIMIT)}`,
    },
    status: 413,
    json: {
      error: `the request body is larger than the limit of ${BODY_LIMIT} bytes`,
      limit: { name: "totalBytes", value: BODY_LIMIT },
    },
  },
  {
    name: "an unterminated multipart body: 400 naming the part it ends in",
    request: {
      method: "POST",
      url: "/form/whole",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body: formBody("b", [["a", "1"], { name: "f", filename: "f.txt", type: "text/plain", content: "cut" }], false),
    },
    status: 400,
    json: {
      error: 'the file "f" ("f.txt", part 2): the body ends before the closing boundary',
      reason: "unterminated",
      part: { index: 2, name: "f", filename: "f.txt" },
    },
  },
  {
    name: "form fields read with a parser: one 400 listing every bad one",
    request: {
      method: "POST",
      url: "/form/typed",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body: formBody("b", [["n", "five"]]),
    },
    status: 400,
    json: {
      error: 'the form field "n" is not a valid Int; the form field "when" is required',
      errors: [
        { in: "body", field: "n", constraint: "Int", message: '"five" is not a valid Int' },
        { in: "body", field: "when", constraint: "required", message: 'the form field "when" is required (Int)' },
      ],
    },
  },
  {
    name: "form fields read with a parser: good ones",
    request: {
      method: "POST",
      url: "/form/typed",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "n=-7&when=0042",
    },
    status: 200,
    json: { n: -7, when: 42 },
  },
];

/**
 * A body validated with a zod schema (issue 24): `body(req, schema)` of the main entry, its output the
 * reply; an invalid body is the one 400 listing every failing field by its path. zod is the one package
 * the table loads besides the library: its CommonJS build, by a relative path (the devDependency at
 * the repository's root), so that every runtime loads the same files — workerd too, whose collected
 * modules resolve a relative `require` as a CommonJS module (a bare one would be zod's ES module
 * build, which workerd's `require` does not hand back as a namespace).
 */
function schemaRoutes(lib, post) {
  const { body, json } = lib;
  const { z } = require("../../node_modules/zod/index.cjs");
  const Order = z.object({
    name: z.string().min(3),
    address: z.object({ city: z.string() }),
    lines: z.array(z.object({ qty: z.number().int().min(1) })).min(1),
  });
  return [post("/schema/orders", async (req) => json(await body(req, Order), { status: 201 }))];
}

/** A JSON POST to the zod-validated route. */
function schemaOrder(value) {
  return {
    method: "POST",
    url: "/schema/orders",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(value),
  };
}

cases.push(
  {
    name: "a zod-validated body: valid, 201 with the schema's output (an undeclared key dropped)",
    request: schemaOrder({ name: "desk", address: { city: "Oslo" }, lines: [{ qty: 2 }], extra: true }),
    status: 201,
    json: { name: "desk", address: { city: "Oslo" }, lines: [{ qty: 2 }] },
  },
  {
    name: "a zod-validated body: invalid, one 400 listing every failing field by its path",
    request: schemaOrder({ name: "ab", address: {}, lines: [{ qty: 1 }, { qty: 0 }] }),
    status: 400,
    json: {
      error: "the body is invalid",
      errors: [
        {
          in: "body",
          field: "name",
          constraint: "too_small",
          message: "Too small: expected string to have >=3 characters",
        },
        {
          in: "body",
          field: "address.city",
          constraint: "invalid_type",
          message: "Invalid input: expected string, received undefined",
        },
        { in: "body", field: "lines.1.qty", constraint: "too_small", message: "Too small: expected number to be >=1" },
      ],
    },
  },
  {
    name: "a zod-validated body: not an object, a 400 for the body as a whole",
    request: schemaOrder([]),
    status: 400,
    json: {
      error: "the body is invalid",
      errors: [
        {
          in: "body",
          field: "",
          constraint: "invalid_type",
          message: "Invalid input: expected object, received array",
        },
      ],
    },
  },
);

/**
 * Response contracts (issue 24), per route: `"strip"` sends the zod schema's output (unknown keys
 * dropped), `"check"` makes a reply that breaks it a 500; and a reply JSON cannot write (a cycle) is a
 * 500 on every adapter, the server going on.
 */
function contractRoutes(lib, get) {
  const { described } = lib;
  const { z } = require("../../node_modules/zod/index.cjs");
  const UserOut = z.object({ id: z.number(), name: z.string() });
  const leaked = () => ({ id: 1, name: "ada", passwordHash: "x" });
  return [
    get("/contract/strip", described(leaked, { contract: "strip", responses: { 200: { schema: UserOut } } })),
    get(
      "/contract/check",
      described(() => ({ id: "1" }), { contract: "check", responses: { 200: { schema: UserOut } } }),
    ),
    get("/contract/cycle", () => {
      const value = { id: 1 };
      value.self = value;
      return value;
    }),
  ];
}

cases.push(
  {
    name: "a route's strip contract sends only the declared fields",
    request: { url: "/contract/strip" },
    status: 200,
    headers: { "content-type": JSON_TYPE },
    json: { id: 1, name: "ada" },
  },
  {
    name: "a reply that breaks its check contract is a 500, never sent",
    request: { url: "/contract/check" },
    ...INTERNAL,
  },
  { name: "a reply with a cycle is a 500", request: { url: "/contract/cycle" }, ...INTERNAL },
);

module.exports = { BODY_LIMIT, cases, createApp, createOptions };

import { Miniflare } from "miniflare";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { bundleApp } from "../bench/lib/bundle.js";

/*
 * A minified edge bundle starts and routes typed segments (issue 27): the app is bundled by esbuild from
 * the built package, minified WITHOUT keepNames (so every class is renamed), and run as it is — in Node
 * from the bundle file, and in workerd through miniflare. The built-in path types must be found by the
 * names patterns use (`Int`, `Day`), and say those names in their messages; a user newtype that gives
 * its name explicitly (`static name = "UserId"`) routes too.
 */

const root = path.resolve(__dirname, "..");

const APP = `
import { alt, Day, Int, NoParse, queryParam, registerPathType, route } from "switchyard-router";
import { toFetch } from "switchyard-router/fetch";

// a user newtype over Int; a minifier renames the class, so the name patterns use is given explicitly
class UserId {
  static name = "UserId";
  constructor(value) { this.value = value; }
  static parseUrlPiece(piece) {
    const n = Int.parseUrlPiece(piece);
    return n === NoParse || n < 1 ? NoParse : new UserId(n);
  }
  static toUrlPiece(id) { return String(id.value); }
}
registerPathType(UserId);

export default {
  fetch: toFetch(
    alt(
      route("GET /n/n:Int", (req) => ({ next: req.vars.n + 1 })),
      route("GET /d/d:Day", (req) => ({ day: String(req.vars.d), weekday: req.vars.d.toDate().getUTCDay() })),
      route("GET /u/id:UserId", (req) => ({ id: req.vars.id.value, isUserId: req.vars.id instanceof UserId })),
      route("GET /q", (req) => ({ page: queryParam(req, "page", Int) })),
    ),
  ),
};
`;

/** The app bundled as a Workers user's bundler does (bench/lib/bundle.js). */
async function bundle(): Promise<string> {
  return (await bundleApp(APP)).text;
}

/** The answers the app must give, whatever runs it. */
const EXPECTED: [string, number, unknown][] = [
  ["/n/41", 200, { next: 42 }],
  ["/n/x", 404, undefined],
  ["/d/2024-02-29", 200, { day: "2024-02-29", weekday: 4 }],
  ["/d/2023-02-29", 404, undefined],
  ["/u/7", 200, { id: 7, isUserId: true }],
  ["/u/0", 404, undefined],
  ["/q?page=3", 200, { page: 3 }],
];

/** A query value that is not an Int: the 400. */
const BAD_URL = "/q?page=x";

type Fetch = (request: Request) => Promise<Response>;

async function check(fetch: Fetch): Promise<void> {
  for (const [url, status, body] of EXPECTED) {
    const response = await fetch(new Request(`http://localhost${url}`));
    expect([url, response.status]).toEqual([url, status]);
    if (body !== undefined) expect(await response.json()).toEqual(body);
    else await response.arrayBuffer();
  }
  // the 400 names the type as patterns do, not as the minifier renamed the class
  const bad = await fetch(new Request(`http://localhost${BAD_URL}`));
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({
    error: 'the query parameter "page" is not a valid Int',
    errors: [{ in: "query", field: "page", constraint: "Int", message: '"x" is not a valid Int' }],
  });
}

let script: string;
let dir: string;

beforeAll(async () => {
  script = await bundle();
  dir = mkdtempSync(path.join(tmpdir(), "switchyard-minified-"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the bundle is minified: the parser classes are renamed", () => {
  expect(script).not.toMatch(/class Int\b/);
});

/** Node runs the bundle file as an ES module, in a child process (jest's own module loader cannot). */
const NODE_RUNNER = `
const { default: app } = await import(process.argv[1]);
const answers = [];
for (const url of JSON.parse(process.argv[2])) {
  const response = await app.fetch(new Request("http://localhost" + url));
  answers.push({ status: response.status, body: await response.text() });
}
console.log(JSON.stringify(answers));
`;

test("in Node, the minified bundle starts and routes Int, Day and a newtype", async () => {
  const file = path.join(dir, "app.mjs");
  writeFileSync(file, script);
  const urls = [...EXPECTED.map(([url]) => url), BAD_URL];
  const { stdout } = await promisify(execFile)(process.execPath, [
    "--input-type=module",
    "-e",
    NODE_RUNNER,
    pathToFileURL(file).href,
    JSON.stringify(urls),
  ]);
  const answers = JSON.parse(stdout) as { status: number; body: string }[];
  await check(async (request) => {
    const { status, body } = answers[urls.indexOf(request.url.slice("http://localhost".length))]!;
    return new Response(status === 404 ? null : body, { status });
  });
}, 30_000);

test("in workerd, the minified bundle starts and routes Int, Day and a newtype", async () => {
  // the module given as it is: miniflare would refuse the import()s of optional peers it cannot follow
  const miniflare = new Miniflare({
    modules: [{ type: "ESModule", path: path.join(root, "worker.mjs"), contents: script }],
    compatibilityDate: "2025-01-01",
  });
  try {
    await miniflare.ready;
    await check(async (request) => (await miniflare.dispatchFetch(request.url)) as unknown as Response);
  } finally {
    await miniflare.dispose();
  }
}, 60_000);

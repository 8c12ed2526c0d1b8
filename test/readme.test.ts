import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { ROOT, runTsc } from "./helpers/typecheck";

/*
 * The README is tested, so it cannot drift from the code.
 *
 * Every ```ts block of README.md is compiled by tsc (the project's options, importing the package as
 * `switchyard-router` / `switchyard-router/decorators`, in an ES-module folder), each block its own
 * module, and tsc must exit 0. Every ```ts block must also say, in an HTML comment on the line right
 * before its fence (invisible on GitHub and npm), how else it is checked:
 *
 *   <!-- readme-test: run -->              the block runs under jest, as its own program (with fresh
 *                                          copies of the modules it imports): an example app is loaded
 *                                          (its startup must not throw) and a test snippet's `test(…)`s
 *                                          must pass
 *   <!-- readme-test: file NAME.ts -->     as `run`, and the block is saved as NAME.ts, so later blocks
 *                                          can `import … from "./NAME.js"` (an app a test block checks)
 *   <!-- readme-test: serve /PATH -->      a server: the block runs with every `listen(…)` moved to a
 *                                          free port on 127.0.0.1, it must start exactly one server,
 *                                          and `GET /PATH` over HTTP must answer 200
 *   <!-- readme-test: compile-only: WHY --> compiled, not run, on purpose; WHY (required) says why
 *                                          (e.g. it runs under node's test runner elsewhere)
 *
 * A ```ts block without a marker fails this test, as do a misspelt or unknown marker, a marker that
 * is not right before a ```ts fence, and a TypeScript fence spelt otherwise (```typescript, ```tsx),
 * so no block can skip the checks by accident. Blocks of other languages (```sh, ```json, plain ```
 * output) are not checked here; test/readme-testing.test.ts runs the quick start and the Testing
 * section as a user would, from an empty folder.
 */

type Check =
  | { readonly kind: "run" }
  | { readonly kind: "serve"; readonly path: string }
  | { readonly kind: "compile-only"; readonly reason: string };

interface Block {
  /** 1-based line of the opening fence in README.md. */
  readonly line: number;
  readonly file: string;
  /** How the block is checked besides compiling; `undefined` when its marker is missing or wrong. */
  readonly check: Check | undefined;
  readonly source: string;
}

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const MARKER = /^\s*<!--\s*readme-test:\s*(.*?)\s*-->\s*$/;
const TS_FENCE = /^(\s*)```ts\s*$/;
/** A fence for TypeScript under another name, which the harness would otherwise pass over. */
const OTHER_TS_FENCE = /^\s*```\s*(typescript|tsx|mts|cts|TS|Ts)\s*$/;

/** The blocks of a markdown text, and what is wrong with their markers. */
function blocksOf(markdown: string): { blocks: Block[]; problems: string[] } {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  const problems: string[] = [];
  let fenced = false; // inside a non-ts fence, whose lines are not markdown
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fenced) {
      if (/^\s*```\s*$/.test(line)) fenced = false;
      continue;
    }
    if (MARKER.test(line) && !TS_FENCE.test(lines[i + 1] ?? "")) {
      problems.push(`README.md:${i + 1}: a readme-test marker must be right before a \`\`\`ts fence`);
    }
    if (OTHER_TS_FENCE.test(line)) {
      problems.push(`README.md:${i + 1}: write TypeScript blocks as \`\`\`ts, so the README test checks them`);
    }
    const fence = TS_FENCE.exec(line);
    if (fence === null) {
      if (/^\s*```/.test(line)) fenced = true;
      continue;
    }
    const indent = fence[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trimEnd() !== `${indent}\`\`\``; i++)
      body.push(lines[i]!.slice(indent.length));
    const directive = MARKER.exec(lines[start - 1] ?? "")?.[1];
    const { check, file, problem } = checkOf(directive);
    if (problem !== undefined) problems.push(`README.md:${start + 1}: ${problem}`);
    blocks.push({
      line: start + 1,
      file: file ?? `readme-line-${start + 1}.ts`,
      check,
      source: `${body.join("\n")}\nexport {};\n`,
    });
  }
  return { blocks, problems };
}

const MARKERS = '"run", "file NAME.ts", "serve /PATH" or "compile-only: WHY"';

function checkOf(directive: string | undefined): { check?: Check; file?: string; problem?: string } {
  if (directive === undefined) {
    return { problem: `a \`\`\`ts block without a readme-test marker (one of ${MARKERS}, on the line before it)` };
  }
  if (directive === "run") return { check: { kind: "run" } };
  const named = /^file\s+([\w.-]+\.ts)$/.exec(directive);
  if (named !== null) return { check: { kind: "run" }, file: named[1]! };
  const served = /^serve\s+(\/\S*)$/.exec(directive);
  if (served !== null) return { check: { kind: "serve", path: served[1]! } };
  const compileOnly = /^compile-only:\s*(\S.*)$/.exec(directive);
  if (compileOnly !== null) return { check: { kind: "compile-only", reason: compileOnly[1]! } };
  return { problem: `unknown readme-test marker "${directive}" (expected ${MARKERS})` };
}

const { blocks, problems } = blocksOf(README);
const files = Object.fromEntries(blocks.map((b) => [b.file, b.source]));

test("every ```ts block says how it is checked: run, file, serve or compile-only with a reason", () => {
  expect(problems).toEqual([]);
});

test("the README has the blocks this test expects to find (extraction works)", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(20);
  expect(blocks.filter((b) => b.check?.kind === "run").length).toBeGreaterThanOrEqual(10);
  expect(blocks.filter((b) => b.check?.kind === "serve").length).toBeGreaterThanOrEqual(5);
  expect(new Set(blocks.map((b) => b.file)).size).toBe(blocks.length); // no two blocks share a file name
  expect(blocks.map((b) => b.file)).toEqual(expect.arrayContaining(["app.ts", "users.ts"]));
  // the quick start's two servers come before any other block
  expect(blocks.slice(0, 2).map((b) => b.check)).toEqual([
    { kind: "serve", path: expect.any(String) },
    { kind: "serve", path: expect.any(String) },
  ]);
});

test("the marker rules catch unmarked, misspelt, misplaced and misnamed blocks", () => {
  const { blocks: found, problems: wrong } = blocksOf(
    [
      "```ts", // 1: no marker
      "const a = 1;",
      "```",
      "<!-- readme-test: runn -->", // 4: unknown
      "```ts",
      "```",
      "<!-- readme-test: compile-only: -->", // 7: no reason
      "```ts",
      "```",
      "<!-- readme-test: run -->", // 10: not before a ts fence
      "",
      "```typescript", // 12: another spelling
      "```",
      "```sh", // a ts fence inside another block is not a block
      "```ts",
      "```",
      "<!-- readme-test: serve /health -->",
      "```ts",
      "```",
    ].join("\n"),
  );
  expect(wrong).toEqual([
    expect.stringMatching(/^README\.md:1: a ```ts block without a readme-test marker/),
    expect.stringMatching(/^README\.md:5: unknown readme-test marker "runn"/),
    expect.stringMatching(/^README\.md:8: unknown readme-test marker "compile-only:"/),
    expect.stringMatching(/^README\.md:10: a readme-test marker must be right before/),
    expect.stringMatching(/^README\.md:12: write TypeScript blocks as ```ts/),
  ]);
  expect(found.map((b) => b.line)).toEqual([1, 5, 8, 18]);
  expect(found.at(-1)!.check).toEqual({ kind: "serve", path: "/health" });
});

/**
 * Compiles `sources` (name → source) with the project's tsc and options in a scratch ES-module folder
 * under dist/ (removed afterwards), importing the package as a user does (tsconfig `paths` to the
 * sources). Returns tsc's exit status and output: anything but status 0 is a failure, also output tsc
 * gives without a file position (a bad option, a crash).
 */
function compile(sources: Readonly<Record<string, string>>): { status: number | null; output: string } {
  const run = runTsc(sources, {}, "readme-typecheck-");
  const dir = run.dir;
  // file positions in README terms: `dist/readme-typecheck-x/users.ts(3,5)` → `README.md:<line> (users.ts:3)`
  const output = `${run.stdout}${run.stderr}`.replace(/^(.+?)\((\d+),\d+\)/gm, (whole, file: string, line: string) => {
    const name = path.relative(dir, path.resolve(ROOT, file));
    const block = blocks.find((b) => b.file === name);
    return block === undefined ? whole : `README.md:${block.line + Number(line)} (${name}:${line})`;
  });
  return { status: run.status, output: run.signal === null ? output : `${output}\n(killed by ${run.signal})` };
}

test("every ```ts block of README.md compiles (tsc exits 0)", () => {
  const { status, output } = compile(files);
  expect({ status, output: output.trim().split("\n") }).toEqual({ status: 0, output: [""] });
}, 60_000);

// The blocks are written out once, then required here so that their `test(…)`s join this file.
const runDir = (() => {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "readme-run-"));
  for (const block of blocks) writeFileSync(path.join(dir, block.file), block.source);
  return dir;
})();
const servers: net.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map(close));
  rmSync(runDir, { recursive: true, force: true });
});

/** Requires a block; with `listen`, every server it starts listens on a free port and is returned. */
function load(block: Block, listen: boolean): net.Server[] {
  const started: net.Server[] = [];
  const original = net.Server.prototype.listen;
  if (listen) {
    net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
      started.push(this);
      servers.push(this);
      const ready = args.find((a) => typeof a === "function") as (() => void) | undefined;
      return original.call(this, { port: 0, host: "127.0.0.1" }, ready);
    } as typeof original;
  }
  try {
    // each block is its own program: the modules it imports (tsyringe's container, a block it builds
    // on) are fresh, so a block cannot lean on what an earlier block set up
    jest.isolateModules(() => require(path.join(runDir, block.file)));
  } finally {
    net.Server.prototype.listen = original;
  }
  return started;
}

async function close(server: net.Server): Promise<void> {
  // binding is asynchronous: a server no test has asked yet may still be on its way to listening
  if (!server.listening) await once(server, "listening").catch(() => undefined);
  if (!server.listening) return;
  const closed = once(server, "close");
  server.close();
  (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  await closed;
}

/** `GET path` on a listening server: the status and the body. */
async function get(server: net.Server, target: string): Promise<{ status: number; body: string }> {
  if (!server.listening) await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: target, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

for (const block of blocks) {
  const check = block.check;
  if (check === undefined || check.kind === "compile-only") continue;
  describe(`README.md:${block.line} ${check.kind === "serve" ? "serves" : "runs"}`, () => {
    let started: net.Server[] = [];
    try {
      started = load(block, check.kind === "serve");
    } catch (error) {
      // an app whose startup throws: reported as a failing test, so the scratch folder is still removed
      test("the block loads", () => {
        throw error;
      });
      return;
    }
    if (check.kind === "run") test("it loads", () => {}); // listed, so a block that ran shows in the report
    if (check.kind === "serve") {
      test(`it starts one server, which answers GET ${check.path} with 200`, async () => {
        expect(started).toHaveLength(1);
        const { status, body } = await get(started[0]!, check.path);
        expect({ status, body }).toEqual({ status: 200, body: expect.any(String) });
      });
    }
  });
}

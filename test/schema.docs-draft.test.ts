import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { ROOT, typecheck } from "./helpers/typecheck";

/*
 * The README draft of issue 24 (docs-drafts/issue-24-validation.md: validation with zod, valibot,
 * arktype and class-validator) is checked the way test/readme.test.ts checks README.md, until the
 * section moves there: every ```ts block is marked `file NAME.ts`, `run`, `serve /PATH` or
 * `compile-only: WHY`, compiles as its own module, and all but the compile-only ones run under jest
 * (their `test(…)`s must pass); a `serve` block must start one server that answers GET /PATH with 200.
 */

const DRAFT = path.join(ROOT, "docs-drafts/issue-24-validation.md");
const MARKER = /^\s*<!--\s*readme-test:\s*(.*?)\s*-->\s*$/;

interface Block {
  readonly line: number;
  readonly file: string;
  readonly marker: string | undefined;
  readonly source: string;
}

function blocksOf(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ts\s*$/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trimEnd() !== "```"; i++) body.push(lines[i]!);
    const marker = MARKER.exec(lines[start - 1] ?? "")?.[1];
    const named = /^file\s+([\w.-]+\.ts)$/.exec(marker ?? "");
    blocks.push({
      line: start + 1,
      file: named?.[1] ?? `draft-line-${start + 1}.ts`,
      marker,
      source: `${body.join("\n")}\nexport {};\n`,
    });
  }
  return blocks;
}

const blocks = blocksOf(readFileSync(DRAFT, "utf8"));
const servePath = (block: Block) => /^serve\s+(\/\S*)$/.exec(block.marker ?? "")?.[1];

const compileOnly = (block: Block) => /^compile-only:\s*\S/.test(block.marker ?? "");

test("every ```ts block of the draft is marked run, file NAME.ts, serve /PATH or compile-only: WHY, and they are all there", () => {
  expect(
    blocks.filter(
      (b) => b.marker === undefined || !/^(run|file [\w.-]+\.ts|serve \/\S*|compile-only:\s*\S.*)$/.test(b.marker),
    ),
  ).toEqual([]);
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  expect(blocks.filter((b) => servePath(b) !== undefined).length).toBeGreaterThanOrEqual(1);
});

test("every ```ts block of the draft compiles", () => {
  const diagnostics = typecheck(Object.fromEntries(blocks.map((b) => [b.file, b.source])));
  expect(
    diagnostics.map((d) => `draft line ${(blocks.find((b) => b.file === d.file)?.line ?? 0) + d.line}: ${d.message}`),
  ).toEqual([]);
}, 60_000);

const runDir = (() => {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "validation-draft-run-"));
  for (const block of blocks) writeFileSync(path.join(dir, block.file), block.source);
  return dir;
})();
const servers: net.Server[] = [];
afterAll(async () => {
  await Promise.all(
    servers.map(async (server) => {
      if (!server.listening) return;
      const closed = once(server, "close");
      server.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
    }),
  );
  rmSync(runDir, { recursive: true, force: true });
});

/** Requires a block; every server it starts listens on a free port of 127.0.0.1 and is returned. */
function load(block: Block): net.Server[] {
  const started: net.Server[] = [];
  const original = net.Server.prototype.listen;
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    started.push(this);
    servers.push(this);
    const ready = args.find((a) => typeof a === "function") as (() => void) | undefined;
    return original.call(this, { port: 0, host: "127.0.0.1" }, ready);
  } as typeof original;
  try {
    // each block is its own program, with fresh copies of what it imports
    jest.isolateModules(() => require(path.join(runDir, block.file)));
  } finally {
    net.Server.prototype.listen = original;
  }
  return started;
}

/** `GET target`, read to its end: the status and the body. */
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
  if (compileOnly(block)) continue;
  const target = servePath(block);
  describe(`draft line ${block.line} ${target === undefined ? "runs" : "serves"}`, () => {
    let started: net.Server[] = [];
    try {
      started = load(block);
    } catch (error) {
      test("the block loads", () => {
        throw error;
      });
      return;
    }
    if (target === undefined) test("it loads", () => {});
    else
      test(`it starts one server, which answers GET ${target} with 200`, async () => {
        expect(started).toHaveLength(1);
        const { status, body } = await get(started[0]!, target);
        expect({ status, body }).toEqual({ status: 200, body: expect.any(String) });
      });
  });
}

import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { ROOT, typecheck } from "./helpers/typecheck";

/*
 * The README draft of issue 24's OpenAPI section (docs-drafts/issue-24-openapi.md) is checked the way
 * test/readme.test.ts checks README.md, until it moves there: every ```ts block is marked `run`,
 * `file NAME.ts` or `serve /PATH`, compiles as its own ES module, and runs under jest (its `test(…)`s
 * must pass; a served block must start one server, which answers GET /PATH with 200).
 */

const DRAFT = path.join(ROOT, "docs-drafts/issue-24-openapi.md");
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

test("every ```ts block of the draft is marked run, file NAME.ts or serve /PATH, and they are all there", () => {
  expect(
    blocks.filter((b) => b.marker === undefined || !/^(run|file [\w.-]+\.ts|serve \/\S*)$/.test(b.marker)),
  ).toEqual([]);
  expect(blocks.map((b) => b.marker)).toEqual(["file todo-app.ts", "run", "run", "serve /docs"]);
});

test("every ```ts block of the draft compiles", () => {
  const diagnostics = typecheck(Object.fromEntries(blocks.map((b) => [b.file, b.source])));
  expect(
    diagnostics.map((d) => `draft line ${(blocks.find((b) => b.file === d.file)?.line ?? 0) + d.line}: ${d.message}`),
  ).toEqual([]);
}, 60_000);

const runDir = (() => {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "openapi-draft-run-"));
  for (const block of blocks) writeFileSync(path.join(dir, block.file), block.source);
  return dir;
})();
const servers: net.Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close();
  }
  rmSync(runDir, { recursive: true, force: true });
});

/** Requires a block; with `listen`, every server it starts listens on a free port of 127.0.0.1. */
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
    jest.isolateModules(() => require(path.join(runDir, block.file)));
  } finally {
    net.Server.prototype.listen = original;
  }
  return started;
}

for (const block of blocks) {
  const serve = /^serve (\/\S*)$/.exec(block.marker ?? "")?.[1];
  describe(`draft line ${block.line} ${serve === undefined ? "runs" : "serves"}`, () => {
    let started: net.Server[] = [];
    try {
      started = load(block, serve !== undefined);
    } catch (error) {
      test("the block loads", () => {
        throw error;
      });
      return;
    }
    if (serve === undefined) test("it loads", () => {});
    else
      test(`it starts one server, which answers GET ${serve} with 200 (and serves the page's files)`, async () => {
        expect(started).toHaveLength(1);
        const server = started[0]!;
        if (!server.listening) await once(server, "listening");
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const page = await fetch(`${base}${serve}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("swagger-ui-bundle.js");
        const bundle = await fetch(`${base}${serve}/assets/swagger-ui-bundle.js`);
        expect(bundle.status).toBe(200);
        expect((await bundle.text()).length).toBeGreaterThan(100_000);
        const document = (await (await fetch(`${base}${serve}/openapi.json`)).json()) as { openapi: string };
        expect(document.openapi).toBe("3.1.0");
      });
  });
}

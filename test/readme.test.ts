import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, typecheck } from "./helpers/typecheck";

/*
 * The README is tested, so it cannot drift from the code.
 *
 * Every ```ts block of README.md is compiled by tsc (the project's options, importing the package as
 * `switchyard-router` / `switchyard-router/decorators`), each block its own module. An HTML comment on
 * the line right before a block's fence says more (invisible on GitHub):
 *
 *   <!-- readme-test: file NAME.ts -->  the block is saved as NAME.ts, so later blocks can
 *                                       `import … from "./NAME"` (an app that a test block checks)
 *   <!-- readme-test: run -->           the block also runs, under jest: an example app is executed (its
 *                                       startup must not throw) and a test snippet's `test(…)`s must pass
 *
 * A block with no marker is compiled only, so it must be complete: imports included, every name
 * declared. Blocks that are not ```ts (```sh, plain ``` output) are not checked. Any other
 * `readme-test:` comment is an error, so a misspelt marker cannot silently skip a block.
 */

interface Block {
  /** 1-based line of the opening fence in README.md. */
  readonly line: number;
  readonly file: string;
  readonly run: boolean;
  readonly source: string;
}

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const MARKER = /^\s*<!--\s*readme-test:\s*(.*?)\s*-->\s*$/;

function blocksOf(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]!);
    if (marker !== null && !/^\s*```ts\s*$/.test(lines[i + 1] ?? "")) {
      throw new Error(`README.md:${i + 1}: a readme-test marker must be right before a \`\`\`ts fence`);
    }
    const fence = /^(\s*)```ts\s*$/.exec(lines[i]!);
    if (fence === null) continue;
    const indent = fence[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trimEnd() !== `${indent}\`\`\``; i++)
      body.push(lines[i]!.slice(indent.length));
    const directive = MARKER.exec(lines[start - 1] ?? "")?.[1];
    const named = /^file\s+([\w.-]+\.ts)$/.exec(directive ?? "");
    if (directive !== undefined && directive !== "run" && named === null) {
      throw new Error(
        `README.md:${start}: unknown readme-test marker "${directive}" (expected "run" or "file NAME.ts")`,
      );
    }
    blocks.push({
      line: start + 1,
      file: named?.[1] ?? `readme-line-${start + 1}.ts`,
      run: directive === "run",
      source: `${body.join("\n")}\nexport {};\n`,
    });
  }
  return blocks;
}

const blocks = blocksOf(README);
const files = Object.fromEntries(blocks.map((b) => [b.file, b.source]));

test("the README has the blocks this test expects to find (extraction works)", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(8);
  expect(blocks.filter((b) => b.run).length).toBeGreaterThanOrEqual(3);
  expect(new Set(blocks.map((b) => b.file)).size).toBe(blocks.length); // no two blocks share a file name
  expect(blocks.map((b) => b.file)).toEqual(expect.arrayContaining(["app.ts", "users.ts"]));
});

test("every ```ts block of README.md compiles", () => {
  const diagnostics = typecheck(files);
  const where = (file: string) => blocks.find((b) => b.file === file);
  const readable = diagnostics.map(
    (d) => `README.md:${(where(d.file)?.line ?? 0) + d.line} (${d.file}:${d.line}) ${d.code}: ${d.message}`,
  );
  expect(readable).toEqual([]);
}, 60_000);

// The runnable blocks are written out once, then required here so that their `test(…)`s join this file.
const runDir = (() => {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "readme-run-"));
  for (const block of blocks) writeFileSync(path.join(dir, block.file), block.source);
  return dir;
})();
afterAll(() => rmSync(runDir, { recursive: true, force: true }));

for (const block of blocks.filter((b) => b.run)) {
  describe(`README.md:${block.line} runs`, () => {
    try {
      require(path.join(runDir, block.file));
    } catch (error) {
      // an app whose startup throws: reported as a failing test, so the scratch folder is still removed
      test("the block loads", () => {
        throw error;
      });
    }
  });
}

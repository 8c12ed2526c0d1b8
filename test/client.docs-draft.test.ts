import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, typecheck } from "./helpers/typecheck";

/*
 * The README draft of issue 26 (docs-drafts/issue-26-types.md: checked by the compiler, standard
 * decorators, Deno, the typed client) is checked the way test/readme.test.ts checks README.md, until
 * the sections move there: every ```ts block is marked `file NAME.ts` or `run`, compiles as its own
 * module, and runs under jest (its `test(…)`s must pass).
 */

const DRAFT = path.join(ROOT, "docs-drafts/issue-26-types.md");
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

test("every ```ts block of the draft is marked run or file NAME.ts, and they are all there", () => {
  expect(blocks.filter((b) => b.marker === undefined || !/^(run|file [\w.-]+\.ts)$/.test(b.marker))).toEqual([]);
  expect(blocks.length).toBeGreaterThanOrEqual(4);
});

test("every ```ts block of the draft compiles", () => {
  const diagnostics = typecheck(Object.fromEntries(blocks.map((b) => [b.file, b.source])));
  expect(
    diagnostics.map((d) => `draft line ${(blocks.find((b) => b.file === d.file)?.line ?? 0) + d.line}: ${d.message}`),
  ).toEqual([]);
}, 60_000);

const runDir = (() => {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "types-draft-run-"));
  for (const block of blocks) writeFileSync(path.join(dir, block.file), block.source);
  return dir;
})();
afterAll(() => rmSync(runDir, { recursive: true, force: true }));

for (const block of blocks) {
  describe(`draft line ${block.line} runs`, () => {
    try {
      require(path.join(runDir, block.file));
    } catch (error) {
      test("the block loads", () => {
        throw error;
      });
      return;
    }
    test("it loads", () => {});
  });
}

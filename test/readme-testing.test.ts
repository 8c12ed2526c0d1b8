import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/*
 * The README's Testing section, run as a user would: every block marked `<!-- readme-testing: file -->`
 * is written to an empty project, the package is linked in as `switchyard-router` (the dist/ the jest
 * global setup built), and the project's own scripts run — tsc, jest through @swc/jest, and node's test
 * runner. The project sits inside this repository so that its other packages resolve from here.
 */

const root = path.resolve(__dirname, "..");
const run = promisify(execFile);
jest.setTimeout(180_000);

/** The marked blocks of the README's Testing section: file name → content. */
function testingBlocks(): Map<string, string> {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const blocks = new Map<string, string>();
  for (const found of readme.matchAll(/<!-- readme-testing: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)) blocks.set(found[1]!, `${found[2]!}\n`);
  return blocks;
}

let project = "";

beforeAll(() => {
  project = mkdtempSync(path.join(root, ".readme-testing-"));
  for (const [file, content] of testingBlocks()) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), content);
  }
  mkdirSync(path.join(project, "node_modules"));
  symlinkSync(root, path.join(project, "node_modules/switchyard-router"), "dir");
});

afterAll(() => {
  if (project !== "") rmSync(project, { recursive: true, force: true });
});

/** Runs one of the project's npm scripts; its output, or a failure showing it. */
async function script(name: string): Promise<string> {
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", name], { cwd: project, env: { ...process.env, CI: "1" } });
    return stdout + stderr;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm run ${name} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

test("the section has every file of the setup", () => {
  expect([...testingBlocks().keys()].sort()).toEqual([
    "jest.config.js", "package.json", "src/users.ts", "test/users.node-test.ts", "test/users.test.ts", "tsconfig.json", "tsconfig.node-test.json",
  ]);
});

test("tsc type-checks the project", async () => {
  await script("typecheck");
});

test("jest through @swc/jest runs the README's tests, and they pass", async () => {
  const output = await script("test");
  expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
});

test("node's test runner runs the tsc-compiled test, and it passes", async () => {
  const output = await script("test:node");
  expect(output).toMatch(/# pass 1\b/);
  expect(output).toMatch(/# fail 0\b/);
});

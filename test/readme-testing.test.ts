import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/*
 * The README's Testing section, run as a user would: every block marked `<!-- readme-testing: file -->`
 * (the line before the fence, or the one before a `readme-test` marker there) is written to an empty
 * project with the `users.ts` of the Decorators section, the package is linked in as
 * `switchyard-router` (the dist/ the jest global setup built), and the project's own scripts run — tsc,
 * jest through @swc/jest, and node's test runner. The project sits inside this repository so that its
 * other packages resolve from here.
 */

const root = path.resolve(__dirname, "..");
const run = promisify(execFile);
jest.setTimeout(180_000);

/** The project's files from the README: file name → content. */
function projectFiles(): Map<string, string> {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const files = new Map<string, string>();
  for (const found of readme.matchAll(
    /<!-- readme-testing: (\S+) -->\n(?:<!-- readme-test: [^\n]* -->\n)?```\w*\n([\s\S]*?)\n```/g,
  )) {
    files.set(found[1]!, `${found[2]!}\n`);
  }
  const users = /<!-- readme-test: file users\.ts -->\n```ts\n([\s\S]*?)\n```/.exec(readme);
  if (users !== null) files.set("users.ts", `${users[1]!}\n`);
  return files;
}

let project = "";

beforeAll(() => {
  project = mkdtempSync(path.join(root, ".readme-testing-"));
  for (const [file, content] of projectFiles()) {
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
    const { stdout, stderr } = await run("npm", ["run", "--silent", name], {
      cwd: project,
      env: { ...process.env, CI: "1" },
    });
    return stdout + stderr;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm run ${name} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

test("the README has every file of the setup", () => {
  expect([...projectFiles().keys()].sort()).toEqual([
    "jest.config.js",
    "package.json",
    "tsconfig.json",
    "tsconfig.node-test.json",
    "users.node-test.ts",
    "users.test.ts",
    "users.ts",
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

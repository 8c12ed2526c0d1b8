import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { promisify } from "node:util";

/*
 * The README run as a user would, from empty folders. Every block marked `<!-- readme-testing: NAME -->`
 * (the line before the fence, or the one before a `readme-test` marker there) is written to an empty
 * project as NAME; the package is linked in as `switchyard-router` (the dist/ the jest global setup
 * built). The project sits inside this repository so that its other packages resolve from here.
 *
 * - The quick start (files under quickstart/): its install lines name every package its code needs,
 *   its `npm init`/`npm pkg` lines run as written, its tsconfig compiles its servers with tsc, and
 *   each server, started as the README says (`node dist/….js`, its port moved to a free one), answers
 *   every `curl` line of the README as that line's comment says.
 * - The Testing section (with the `users.ts` of the Decorators section): the project's own scripts
 *   run — tsc, jest through @swc/jest, and node's test runner.
 */

const root = path.resolve(__dirname, "..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const run = promisify(execFile);
jest.setTimeout(180_000);

/** The project's files from the README: file name → content. */
function projectFiles(): Map<string, string> {
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

const files = projectFiles();
let project = "";
const quickstart = () => path.join(project, "quickstart");

beforeAll(() => {
  project = mkdtempSync(path.join(root, ".readme-testing-"));
  for (const [file, content] of files) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), content);
  }
  mkdirSync(path.join(project, "node_modules"));
  symlinkSync(root, path.join(project, "node_modules/switchyard-router"), "dir");
});

afterAll(() => {
  if (project !== "") rmSync(project, { recursive: true, force: true });
});

test("the README has every file of both projects", () => {
  expect([...files.keys()].sort()).toEqual([
    "jest.config.js",
    "package.json",
    "quickstart/install-decorators.sh",
    "quickstart/install.sh",
    "quickstart/notes.sh",
    "quickstart/notes.ts",
    "quickstart/server.sh",
    "quickstart/server.ts",
    "quickstart/tsconfig.json",
    "tsconfig.json",
    "tsconfig.node-test.json",
    "users.node-test.ts",
    "users.test.ts",
    "users.ts",
  ]);
});

/** The commands of a shell block: one per line and per `&&`, comments and blank lines dropped. */
function commands(script: string): string[] {
  return script
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .flatMap((line) => line.split("&&").map((command) => command.trim()));
}

/** Runs a command the README gives (plain words, no quoting) in `cwd`; its output, or a failure showing it. */
async function shell(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const [file, ...args] = command.split(/\s+/);
  try {
    const { stdout, stderr } = await run(file!, args, { cwd, env: { ...process.env, CI: "1", ...env } });
    return stdout + stderr;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

describe("the quick start, as a new user follows it", () => {
  const install = () => [
    ...commands(files.get("quickstart/install.sh") ?? ""),
    ...commands(files.get("quickstart/install-decorators.sh") ?? ""),
  ];
  const isInstall = (command: string) => /^npm (i|install)\s/.test(command);

  test("its install lines name every package its code imports, and the decorators' peers", () => {
    const installed = install()
      .filter(isInstall)
      .flatMap((command) => command.split(/\s+/).slice(2))
      .filter((word) => !word.startsWith("-"));
    const imported = ["server.ts", "notes.ts"].flatMap((file) =>
      [...(files.get(`quickstart/${file}`) ?? "").matchAll(/^import (?:[^"]* from )?"([^"]+)";/gm)]
        .map((found) => found[1]!)
        .filter((name) => !name.startsWith(".") && !name.startsWith("node:"))
        .map((name) =>
          name
            .split("/")
            .slice(0, name.startsWith("@") ? 2 : 1)
            .join("/"),
        ),
    );
    // what `switchyard-router/decorators` loads itself (reflect-metadata) or for @Body (the other two)
    const decoratorPeers = ["reflect-metadata", "class-validator", "class-transformer"];
    const { peerDependencies } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    };
    expect(Object.keys(peerDependencies)).toEqual(expect.arrayContaining(decoratorPeers));
    expect(imported).toContain("switchyard-router");
    expect(installed).toEqual(expect.arrayContaining([...imported, ...decoratorPeers, "typescript", "@types/node"]));
    // what is installed but not imported: the compiler, node's types, and the peers the decorators load
    expect(installed.filter((name) => !imported.includes(name)).sort()).toEqual(
      ["@types/node", "reflect-metadata", "class-transformer", "typescript"].sort(),
    );
  });

  test("`npm init` and `npm pkg` as written give a package.json of an ES-module project", async () => {
    const setup = install().filter((command) => !isInstall(command));
    expect(setup).toEqual(["npm init -y", "npm pkg set type=module"]);
    for (const command of setup) await shell(command, quickstart());
    const written = JSON.parse(readFileSync(path.join(quickstart(), "package.json"), "utf8")) as { type?: string };
    expect(written.type).toBe("module");
  });

  test("`npx tsc` compiles both servers with the README's tsconfig.json", async () => {
    // `npx tsc` runs the project's own TypeScript; here that is the repository's (this project has no node_modules/.bin)
    await shell(`${process.execPath} ${path.join(root, "node_modules/typescript/bin/tsc")}`, quickstart());
    expect(readFileSync(path.join(quickstart(), "dist/server.js"), "utf8")).toMatch(/^import /m); // ES module output
  });

  for (const script of ["server.sh", "notes.sh"]) {
    test(`${script}: each curl line answers as its comment says`, async () => {
      const [start, ...lines] = (files.get(`quickstart/${script}`) ?? "").split("\n").filter((l) => l.trim() !== "");
      const started = /^npx tsc && node (dist\/\S+\.js)$/.exec(start!);
      expect(started).not.toBeNull();
      expect(lines.length).toBeGreaterThanOrEqual(3);
      const server = await startServer(started![1]!);
      try {
        // a curl line, with its answer in a comment at its end or on the next line
        for (let i = 0; i < lines.length; i++) {
          const found = /^(curl\s.*?)(?:\s+#\s(.*))?$/.exec(lines[i]!);
          if (found === null) throw new Error(`not a curl line: ${lines[i]}`);
          const answer = found[2] ?? /^#\s(.*)$/.exec(lines[++i] ?? "")?.[1];
          if (answer === undefined) throw new Error(`no answer in a comment for: ${lines[i - 1]}`);
          await check(found[1]!, answer, server.port);
        }
      } finally {
        server.child.kill();
        await server.exited;
      }
    });
  }
});

/**
 * Starts `node <main>` in the quick-start folder as the README says, with a preload that moves its
 * `listen(3000)` to a free port on 127.0.0.1 and reports that port.
 */
async function startServer(main: string): Promise<{ child: ChildProcess; port: number; exited: Promise<unknown> }> {
  const preload = path.join(project, "listen-anywhere.cjs");
  writeFileSync(
    preload,
    `const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once("listening", () => process.stderr.write("readme-testing: port " + this.address().port + "\\n"));
  return listen.call(this, 0, "127.0.0.1", args.find((a) => typeof a === "function"));
};
`,
  );
  const child = spawn(process.execPath, ["--require", preload, main], { cwd: quickstart(), stdio: "pipe" });
  const exited = once(child, "exit");
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${main} did not listen within 20 s:\n${output}`)), 20_000);
    const heard = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /readme-testing: port (\d+)/.exec(output);
      if (found !== null) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    };
    child.stdout!.on("data", heard);
    child.stderr!.on("data", heard);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${main} exited (${code}) before listening:\n${output}`));
    });
  });
  return { child, port, exited };
}

/**
 * Sends what a `curl` command of the README sends (`curl [-i] [-X METHOD] localhost:3000/PATH
 * [-H 'NAME: VALUE'] [-d 'BODY']`; `-d` means POST and, unless `-H` says otherwise, curl's form content
 * type) and checks the answer against `expected`: the status line after `-i` (`HTTP/1.1 404 Not
 * Found…`), else the exact body, where `…` stands for anything.
 */
async function check(line: string, expected: string, port: number): Promise<void> {
  const words = line.slice("curl".length).match(/'[^']*'|\S+/g)!;
  const unquoted = (word: string | undefined) => (word ?? "").replace(/^'(.*)'$/, "$1");
  let status = false;
  let method: string | undefined;
  let body: string | undefined;
  let target: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "-i") status = true;
    else if (word === "-X") method = words[++i];
    else if (word === "-d") body = unquoted(words[++i]);
    else if (word === "-H") {
      const [name, ...value] = unquoted(words[++i]).split(":");
      headers[name!.trim().toLowerCase()] = value.join(":").trim();
    } else if (word.startsWith("localhost:3000/")) target = word.slice("localhost:3000".length);
    else throw new Error(`the curl line has a word this test does not know: ${word}`);
  }
  if (target === undefined) throw new Error(`no localhost:3000 URL in: ${line}`);
  if (body !== undefined) headers["content-type"] ??= "application/x-www-form-urlencoded";
  const answer = await send(port, method ?? (body === undefined ? "GET" : "POST"), target, headers, body);
  if (status) {
    const statusLine = `HTTP/1.1 ${answer.status} ${answer.statusText}`;
    expect({ line, statusLine }).toEqual({ line, statusLine: expected.slice(0, statusLine.length) });
  } else {
    const pattern = new RegExp(`^${expected.split("…").map(escapeRegExp).join(".*")}$`);
    expect({ line, body: answer.body }).toEqual({ line, body: expect.stringMatching(pattern) });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function send(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; statusText: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path: target, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, statusText: res.statusMessage!, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the Testing section's project", () => {
  /** Runs one of the project's npm scripts; its output, or a failure showing it. */
  const script = (name: string) => shell(`npm run --silent ${name}`, project);

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
});

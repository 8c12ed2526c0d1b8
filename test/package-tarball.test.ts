import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/*
 * The package as npm would publish it: `npm pack` (dist/ is built by the jest global setup), linted by
 * publint and @arethetypeswrong/cli, then unpacked into a consumer project in a temporary folder that
 * loads every subpath of the `exports` map from an ES module and a CommonJS file, compiles a typed
 * consumer with tsc under nodenext, and loads both builds into one process.
 */

const root = path.resolve(__dirname, "..");
const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  readonly name: string;
  readonly exports: Readonly<Record<string, unknown>>;
};
/** The subpaths that are modules (every key of `exports` but ./package.json), and the specifier for each. */
const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== "./package.json");
const specifier = (subpath: string) => (subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`);

// packing, linting (attw loads its own TypeScript) and compiling: far over jest's 5 s default
jest.setTimeout(120_000);

let work = "";
let tarball = "";
let packed: readonly string[] = [];
/** A consumer project with the tarball unpacked into its node_modules. */
let project = "";

/** Runs node on a file of the consumer project and parses the JSON line it prints. */
async function nodeJson<T>(file: string): Promise<T> {
  const { stdout } = await run(process.execPath, [file], { cwd: project });
  return JSON.parse(stdout) as T;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "switchyard-router-pack-"));
  // no prepack: its rebuild would delete dist/ under the test files that are loading it right now
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    cwd: root,
  });
  const [result] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  tarball = path.join(work, result.filename);
  packed = result.files.map((file) => file.path);

  project = path.join(work, "consumer");
  const modules = path.join(project, "node_modules");
  await mkdir(path.join(modules, "@types"), { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", modules]);
  await rename(path.join(modules, "package"), path.join(modules, manifest.name));
  // what a consumer installs beside it: the decorators' peer dependencies, and Node's types for tsc
  for (const peer of ["reflect-metadata", "class-validator"])
    await symlink(path.join(root, "node_modules", peer), path.join(modules, peer), "dir");
  await symlink(path.join(root, "node_modules/@types/node"), path.join(modules, "@types/node"), "dir");
  await writeFile(
    path.join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "commonjs" }),
  );
});

afterAll(async () => {
  if (work !== "") await rm(work, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  test("holds the two builds, the runtime bundles, the sources their source maps point to, README, LICENSE and package.json, and nothing else", () => {
    const outside = packed.filter(
      (file) =>
        !/^(dist\/(cjs|esm|bundle\/cjs|bundle\/esm)|src|decorators|cli)\//.test(file) &&
        !["package.json", "README.md", "LICENSE"].includes(file),
    );
    expect(outside).toEqual([]);
    expect(packed).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "dist/esm/package.json",
        "dist/bundle/esm/package.json",
        "dist/bundle/cjs/package.json",
      ]),
    );
  });

  test("every file the exports map names is in it", () => {
    const targetsOf = (entry: unknown): string[] =>
      typeof entry === "string" ? [entry.slice(2)] : Object.values(entry as object).flatMap(targetsOf);
    const targets = targetsOf(manifest.exports);
    // types, Node's bundle and the per-file build, for import and for require, for each subpath
    expect(targets.length).toBe(subpaths.length * 6 + 1);
    expect(targets.filter((target) => !packed.includes(target))).toEqual([]);
  });

  test("publint reports nothing, and attw finds no problem in any entry point under node10, node16 (from CJS and ESM) and bundler resolution", async () => {
    // their APIs, on the tarball's bytes: no registry is asked (attw's DefinitelyTyped lookup is the CLI's)
    const script = `
      import { readFile } from "node:fs/promises";
      import { publint } from "publint";
      import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
      const data = await readFile(process.env.TARBALL);
      const { messages } = await publint({ pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) }, strict: true });
      const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(data)));
      console.log(JSON.stringify({ publint: messages, types: analysis.types, problems: analysis.problems, entrypoints: Object.keys(analysis.entrypoints) }));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, TARBALL: tarball },
    });
    const lint = JSON.parse(stdout) as {
      publint: unknown[];
      types: { kind: string };
      problems: unknown[];
      entrypoints: string[];
    };
    expect(lint.publint).toEqual([]);
    expect(lint.types).toEqual({ kind: "included" });
    expect(lint.problems).toEqual([]);
    expect(lint.entrypoints.sort()).toEqual(Object.keys(manifest.exports).sort());
  });
});

describe("a consumer of the unpacked tarball", () => {
  interface Loaded {
    readonly file: string;
    readonly names: readonly string[];
  }

  test("every subpath loads from an .mjs file (the ES module bundle) and a .cjs file (the CommonJS bundle), with the same exports", async () => {
    const list = JSON.stringify(subpaths.map((subpath) => [subpath, specifier(subpath)]));
    await writeFile(
      path.join(project, "load-all.mjs"),
      `const loaded = {};
       for (const [subpath, specifier] of ${list}) {
         loaded[subpath] = { file: import.meta.resolve(specifier), names: Object.keys(await import(specifier)).sort() };
       }
       console.log(JSON.stringify(loaded));`,
    );
    await writeFile(
      path.join(project, "load-all.cjs"),
      `const loaded = {};
       for (const [subpath, specifier] of ${list}) {
         loaded[subpath] = { file: require.resolve(specifier), names: Object.keys(require(specifier)).sort() };
       }
       console.log(JSON.stringify(loaded));`,
    );
    const [esm, cjs] = await Promise.all([
      nodeJson<Record<string, Loaded>>("load-all.mjs"),
      nodeJson<Record<string, Loaded>>("load-all.cjs"),
    ]);
    for (const subpath of subpaths) {
      expect(esm[subpath]!.file).toContain(`/node_modules/${manifest.name}/dist/bundle/esm/`);
      expect(cjs[subpath]!.file).toContain(`/node_modules/${manifest.name}/dist/bundle/cjs/`);
      expect(esm[subpath]!.names.length).toBeGreaterThan(0);
      expect(esm[subpath]!.names).toEqual(cjs[subpath]!.names);
    }
  });

  test("a typed consumer compiles with tsc under nodenext, checking the package's .d.ts files, as an ES module and as CommonJS, and both run alike", async () => {
    // one consumer, compiled as .mts (ES module: the "import" types) and .cts (CommonJS: the "require" types)
    const everySubpath = subpaths
      .map((subpath, i) => `import * as subpath${i} from "${specifier(subpath)}";`)
      .join("\n");
    const consumer = `
      import { createServer } from "node:http";
      import type { AddressInfo } from "node:net";
      import { Min } from "class-validator";
      import { alt, inject, Int, json, route, routeMismatch } from "switchyard-router";
      import { controllers, Match, Newtype, PathType, PathVar, Route } from "switchyard-router/decorators";
      import { toApplication } from "switchyard-router/node";
      ${everySubpath}

      /** An Int of at least 1: class-validator is loaded by the package itself, from either build. */
      @PathType()
      class UserId extends Newtype(Int) {
        @Min(1) declare readonly value: number;
      }
      declare module "switchyard-router" {
        interface PathTypes {
          UserId: UserId;
        }
      }

      @Match("/greet")
      class Greeter {
        @Route("GET /name:Text")
        hello(@PathVar("name") name: string): string {
          return \`hello \${name}\`;
        }
      }

      const app = alt(
        route("GET /n/id:Int", (req) => {
          const id: number = req.vars.id;
          // @ts-expect-error an Int path variable is a number: the types are really checked, not any
          const asText: string = req.vars.id;
          return asText === "" || id > 100 ? routeMismatch() : json({ id, next: id + 1 });
        }),
        route("GET /n/id:Text", (req) => \`not a small number: \${req.vars.id}\`),
        route("GET /u/id:UserId", (req) => \`user \${req.vars.id.value}\`),
        controllers([Greeter]),
      );

      async function main(): Promise<void> {
        const injected = await Promise.all(["/n/7", "/n/700", "/greet/ada", "/u/7", "/u/0", "/nowhere"].map((url) => inject(app, { url })));
        const server = createServer(toApplication(app));
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const served = await fetch(\`http://127.0.0.1:\${(server.address() as AddressInfo).port}/n/7\`);
        const servedBody = await served.text();
        server.close();
        const exported = [${subpaths.map((_, i) => `subpath${i}`).join(", ")}].map((namespace) => Object.keys(namespace).length > 0);
        console.log(JSON.stringify({ injected: injected.map((r) => [r.status, r.body]), served: [served.status, servedBody], exported }));
      }
      void main();
    `;
    await writeFile(path.join(project, "consumer.mts"), consumer);
    await writeFile(path.join(project, "consumer.cts"), consumer);
    await writeFile(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2022"],
          types: ["node"],
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          rootDir: ".",
          outDir: "out",
        },
        files: ["consumer.mts", "consumer.cts"],
      }),
    );
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    await expect(run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project })).resolves.toBeDefined();

    const expected = {
      injected: [
        [200, '{"id":7,"next":8}'],
        [200, "not a small number: 700"],
        [200, "hello ada"],
        [200, "user 7"],
        [404, ""],
        [404, ""],
      ],
      served: [200, '{"id":7,"next":8}'],
      exported: subpaths.map(() => true),
    };
    const [esm, cjs] = await Promise.all([nodeJson("out/consumer.mjs"), nodeJson("out/consumer.cjs")]);
    expect(esm).toEqual(expected);
    expect(cjs).toEqual(expected);
  });

  describe("one process that loads both builds (an app's import and a dependency's require) has one routing state", () => {
    let seen: Record<string, unknown> = {};

    beforeAll(async () => {
      await writeFile(
        path.join(project, "both-builds.mjs"),
        `import { createRequire } from "node:module";
         import * as esm from "${manifest.name}";
         const cjs = createRequire(import.meta.url)("${manifest.name}");
         const get = async (copy, tree, url) => {
           const { status, body } = await copy.inject(tree, { url });
           return [status, body];
         };
         const attempt = async (observe) => {
           try { return await observe(); } catch (error) { return { threw: error.message }; }
         };
         const kebab = (piece) => (/^[a-z]+(-[a-z]+)*$/.test(piece) ? piece : esm.NoParse);
         class Slug { static parseUrlPiece = kebab; static toUrlPiece = String; }
         class Handle { static parseUrlPiece = (piece) => (piece.startsWith("@") ? piece.slice(1) : cjs.NoParse); static toUrlPiece = (h) => "@" + h; }
         const seen = {
           twoCopies: esm.route !== cjs.route && esm.Int !== cjs.Int,
           registeredThroughCjs: await attempt(async () => {
             cjs.registerPathType(Slug);
             const tree = esm.route("/s/x:Slug", (req) => req.vars.x);
             return [esm.registeredPathTypeNames().includes("Slug"), await get(esm, tree, "/s/ab-cd"), await get(esm, tree, "/s/AB")];
           }),
           registeredThroughEsm: await attempt(async () => {
             esm.registerPathType(Handle);
             return [cjs.lookupPathType("Handle") === Handle, await get(cjs, cjs.route("/h/x:Handle", (req) => req.vars.x), "/h/@ada")];
           }),
           takenNameRefused: await attempt(() => {
             esm.registerPathType({ name: "Slug", parseUrlPiece: String, toUrlPiece: String });
             return "registered";
           }),
           mismatchFromCjs: await attempt(() =>
             get(esm, esm.alt(esm.route("/a", () => cjs.routeMismatch()), esm.route("/a", () => "the next route")), "/a"),
           ),
           mismatchRecognised: esm.isRouteMismatch(cjs.routeMismatch()) && cjs.isRouteMismatch(esm.routeMismatch()),
           replyFromCjs: await attempt(() => get(esm, esm.route("/r", () => cjs.json({ made: "by cjs" }, { status: 201 })), "/r")),
           replyRecognised: esm.isReply(cjs.text("x")) && cjs.isReply(esm.text("x")),
           cjsTreeThroughEsm: await attempt(async () => {
             const tree = cjs.alt(cjs.route("/n/id:Int", (req) => "Int " + req.vars.id), cjs.route("/n/id:Text", (req) => "Text " + req.vars.id));
             return [await get(esm, tree, "/n/5"), await get(esm, tree, "/n/five")];
           }),
         };
         console.log(JSON.stringify(seen));`,
      );
      seen = await nodeJson("both-builds.mjs");
    });

    test("the two builds really are two copies of the code", () => {
      expect(seen.twoCopies).toBe(true);
    });

    test("a path type registered through one build is known to the other", () => {
      expect(seen.registeredThroughCjs).toEqual([true, [200, "ab-cd"], [404, ""]]);
      expect(seen.registeredThroughEsm).toEqual([true, [200, "ada"]]);
    });

    test("a type name taken through one build is refused to another parser through the other", () => {
      expect(seen.takenNameRefused).toEqual({ threw: expect.stringContaining('"Slug" is already registered') });
    });

    test("routeMismatch() from one build passes to the next route in the other", () => {
      expect(seen.mismatchFromCjs).toEqual([200, "the next route"]);
      expect(seen.mismatchRecognised).toBe(true);
    });

    test("a reply made by one build is sent as that reply by the other", () => {
      expect(seen.replyFromCjs).toEqual([201, '{"made":"by cjs"}']);
      expect(seen.replyRecognised).toBe(true);
    });

    test("a tree built with one build is routed by the other, typed variables included", () => {
      expect(seen.cjsTreeThroughEsm).toEqual([
        [200, "Int 5"],
        [200, "Text five"],
      ]);
    });
  });
});

import { transformSync as esbuild } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as lib from "../src";
import * as decorators from "../decorators";
import { classChain, guardsOf, matchesOf, middlewaresOf, paramsOf, routesOf } from "../decorators/metadata";
import { runCommonJs, swcToCommonJs, tscToCommonJs } from "./helpers/compile-decorators";
import { runtimePackage } from "./shared/runtimes";

/*
 * One controller file (test/fixtures/standard-controllers.ts: @Match, @Route, @Handle, @Guard, @Use and
 * Controller(prefix), no parameter decorator) compiled every way a user's toolchain does: tsc with
 * experimentalDecorators on and off, swc legacy and standard (2022-03, 2023-11), esbuild legacy and
 * standard; each run here on Node must record the same metadata and answer the same requests. Bun and
 * Deno run the very file with their own defaults (TC39 standard decorators; Deno without any
 * experimentalDecorators setting) against the built package, and answer the same.
 */

const ROOT = path.resolve(__dirname, "..");
const FIXTURE = path.join(ROOT, "test/fixtures/standard-controllers.ts");
const SOURCE = readFileSync(FIXTURE, "utf8");

/** What every compilation must answer: [status, body, x-via header]. */
const EXPECTED = [
  [200, '{"ok":true}', "teapot"],
  [418, "short and stout", null],
  [404, "", null], // the guard refuses: the next route, none
  [200, "s3cret", "teapot"],
  [200, '{"org":"acme","id":7}', null],
  [200, '{"name":"0"}', null], // byId answers routeMismatch() for 0: byName is tried
  [200, '{"name":"ada"}', null],
  [404, "", null],
  [200, '{"deleted":7}', null],
  [201, '{"name":"ada"}', null],
  [404, "", null],
];

const tsc = (legacy: boolean): string => tscToCommonJs(SOURCE, legacy);
const swcCompile = (version: "legacy" | "2022-03" | "2023-11"): string => swcToCommonJs(SOURCE, FIXTURE, version);

function esbuildCompile(legacy: boolean): string {
  return esbuild(SOURCE, {
    loader: "ts",
    format: "cjs",
    target: "es2022",
    tsconfigRaw: { compilerOptions: { experimentalDecorators: legacy } },
  }).code;
}

const COMPILED: Readonly<Record<string, { code: () => string; standard: RegExp | null }>> = {
  "tsc, experimentalDecorators": { code: () => tsc(true), standard: null },
  "tsc, standard decorators": { code: () => tsc(false), standard: /__esDecorate/ },
  "swc, legacy decorators": { code: () => swcCompile("legacy"), standard: null },
  "swc, standard decorators 2022-03": { code: () => swcCompile("2022-03"), standard: /_apply_decs_2203/ },
  "swc, standard decorators 2023-11": { code: () => swcCompile("2023-11"), standard: /_apply_decs_2311/ },
  "esbuild, experimentalDecorators": { code: () => esbuildCompile(true), standard: null },
  "esbuild, standard decorators": { code: () => esbuildCompile(false), standard: /__decorateElement/ },
};

interface Fixture {
  readonly Health: decorators.ControllerClass;
  readonly Users: decorators.ControllerClass;
  readonly REQUESTS: readonly lib.InjectRequest[];
}

/** Runs CommonJS `code` in this process, with the package's sources as its imports. */
function load(code: string): Fixture {
  return runCommonJs(code, {
    "switchyard-router": lib,
    "switchyard-router/decorators": decorators,
  }) as unknown as Fixture;
}

async function answers(fixture: Fixture): Promise<unknown[]> {
  const client = lib.testClient(decorators.controllers([fixture.Health, fixture.Users]));
  const out: unknown[] = [];
  for (const request of fixture.REQUESTS) {
    const res = await client.request(request);
    out.push([res.status, res.body, res.headers["x-via"] ?? null]);
  }
  return out;
}

const named = (value: unknown) => (typeof value === "function" ? `fn:${value.name}` : value);

/** Everything the decorators recorded on the controllers' classes, functions by name. */
function metadata(fixture: Fixture): unknown {
  return [fixture.Health, fixture.Users].map((cls) =>
    classChain(cls).map((level) => ({
      name: level.name,
      match: matchesOf(level),
      routes: routesOf(level),
      params: paramsOf(level),
      guards: guardsOf(level).map((g) => ({ ...g, guard: named(g.guard) })),
      middlewares: middlewaresOf(level).map((m) => ({ ...m, middleware: named(m.middleware) })),
    })),
  );
}

let reference: { answers: unknown[]; metadata: unknown; listing: string } | undefined;

describe.each(Object.keys(COMPILED))("%s", (name) => {
  const { code: compile, standard } = COMPILED[name]!;
  let fixture: Fixture;
  let code: string;
  beforeAll(() => {
    code = compile();
    fixture = load(code);
  }, 60_000);

  test(standard === null ? "is the legacy form" : "is really the standard form", () => {
    if (standard === null) expect(code).not.toMatch(/__esDecorate|_apply_decs|__decorateElement/);
    else expect(code).toMatch(standard);
  });

  test("answers every request as expected", async () => {
    expect(await answers(fixture)).toEqual(EXPECTED);
  });

  test("records the same metadata and builds the same routes as tsc's legacy decorators", () => {
    const mine = {
      answers: EXPECTED,
      metadata: metadata(fixture),
      listing: lib.printRoutes(decorators.controllers([fixture.Health, fixture.Users])),
    };
    reference ??= mine; // the first row is tsc with experimentalDecorators
    expect(mine).toEqual(reference);
    expect(mine.listing).toMatch(
      /DELETE +\/orgs\/{org:Text}\/users\/{id:Int} +Users.remove +use: Timing.intercept; guard: admin/,
    );
  });
});

describe.each(["bun", "deno"] as const)(
  "%s runs the file itself, with its default (standard) decorators",
  (runtime) => {
    test("and answers every request as expected, with the same routes", () => {
      // inside the repository, as an app lives in its project: Deno resolves the build's bare imports
      // (reflect-metadata) through the package.json above the main module, and a system temporary
      // directory has none (the test passed only where that directory sat inside a project)
      const dir = mkdtempSync(path.join(ROOT, "dist", `switchyard-${runtime}-`));
      try {
        const url = (file: string) => pathToFileURL(path.join(ROOT, file)).href;
        writeFileSync(
          path.join(dir, "controllers.ts"),
          SOURCE.replace('"switchyard-router/decorators"', JSON.stringify(url("dist/esm/decorators/index.js"))).replace(
            '"switchyard-router"',
            JSON.stringify(url("dist/esm/src/index.js")),
          ),
        );
        writeFileSync(
          path.join(dir, "run.mjs"),
          `const lib = await import(${JSON.stringify(url("dist/esm/src/index.js"))});
const decorators = await import(${JSON.stringify(url("dist/esm/decorators/index.js"))});
const fixture = await import("./controllers.ts");
const app = decorators.controllers([fixture.Health, fixture.Users]);
const client = lib.testClient(app);
const answers = [];
for (const request of fixture.REQUESTS) {
  const res = await client.request(request);
  answers.push([res.status, res.body, res.headers["x-via"] ?? null]);
}
console.log(JSON.stringify({ answers, listing: lib.printRoutes(app) }));
`,
        );
        const binary = path.join(
          path.dirname(require.resolve(`${runtimePackage(runtime)}/package.json`)),
          runtime === "bun" ? "bin/bun" : "deno",
        );
        const args = runtime === "bun" ? ["run.mjs"] : ["run", "--no-prompt", "--no-lock", "--allow-read", "run.mjs"];
        const run = spawnSync(binary, args, {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
          timeout: 60_000,
        });
        expect(run.stderr).toBe("");
        const result = JSON.parse(run.stdout) as { answers: unknown[]; listing: string };
        expect(result.answers).toEqual(EXPECTED);
        expect(result.listing).toBe(
          lib.printRoutes(decorators.controllers([load(tsc(true)).Health, load(tsc(true)).Users])),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 90_000);
  },
);

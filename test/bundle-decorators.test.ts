import { build } from "esbuild";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { bunBinary } from "./shared/runtimes";
import { jsonLines } from "./helpers/node-child";

/*
 * `switchyard-router/decorators` in a bundle (issue 27, the edge): its optional peers are loaded by a
 * name chosen at run time, which no bundler follows. An app that hands them over with
 * `provideLibraries` gets a `Newtype`'s class-validator constraints checked; in one that does not, reading
 * them throws an error naming `provideLibraries` (not esbuild's bare "Dynamic require"), and no value
 * passes unchecked (a segment whose parser throws is a mismatch).
 */

const root = path.resolve(__dirname, "..");

const app = (provide: boolean) => `
import "reflect-metadata";
import * as classTransformer from "class-transformer";
import * as classValidator from "class-validator";
import { Int, registerPathType, route } from "switchyard-router";
import { isValid, Newtype, provideLibraries } from "switchyard-router/decorators";
import { toFetch } from "switchyard-router/fetch";

${provide ? 'provideLibraries({ "class-validator": classValidator, "class-transformer": classTransformer });' : "void classTransformer;"}

class Adult extends Newtype(Int) {}
Reflect.decorate([classValidator.Min(18)], Adult.prototype, "value");
registerPathType(Adult, "Adult");

const fetch = toFetch(route("GET /age/a:Adult", (req) => ({ age: req.vars.a.value })), {
  onError: (error) => { console.log(JSON.stringify({ error: String(error) })); throw error; },
});
try {
  console.log(JSON.stringify({ valid: isValid(new Adult(7)) }));
} catch (error) {
  console.log(JSON.stringify({ thrown: String(error) }));
}
for (const url of ["/age/30", "/age/7"]) {
  const response = await fetch(new Request("http://localhost" + url));
  console.log(JSON.stringify({ url, status: response.status }));
}
`;

async function runBundled(provide: boolean): Promise<string> {
  const result = await build({
    stdin: { contents: app(provide), resolveDir: root, sourcefile: "app.mjs" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    external: ["multipasta"],
    logLevel: "silent",
  });
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-bundle-decorators-"));
  try {
    const file = path.join(dir, "app.mjs");
    writeFileSync(file, result.outputFiles[0]!.text);
    const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: dir }).catch(
      (failure: { stdout: string; stderr: string }) => ({ stdout: failure.stdout + failure.stderr }),
    );
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("with provideLibraries, a bundled Newtype's @Min is checked: 30 routes, 7 is a mismatch", async () => {
  const out = await runBundled(true);
  expect(out).toContain('{"url":"/age/30","status":200}');
  expect(out).toContain('{"url":"/age/7","status":404}');
  expect(out).toContain('{"valid":false}');
}, 60_000);

test("without it, the bundle fails naming provideLibraries (never validates nothing)", async () => {
  const out = await runBundled(false);
  expect(out).not.toContain('{"url":"/age/7","status":200}');
  expect(out).toMatch(
    /"thrown":"Error: switchyard-router\/decorators cannot load class-validator by name in this bundle.*provideLibraries/,
  );
}, 60_000);

/*
 * Bun's bundler, unlike esbuild, leaves a `require` by name working at run time: it loads a second
 * copy of the libraries from node_modules beside the one in the bundle. The libraries handed over are
 * the bundle's, whose class-transformer storage holds the app's `@Type`s, so they must answer: a valid
 * nested body is accepted (not a 400 from a copy that never saw the `@Type`), an invalid one refused.
 * The bundle holds the jest tests' nested-DTO controller (test/helpers/dto-apps.ts) and the decorators
 * from source, as Bun compiles TypeScript itself.
 */
const bunApp = `
import "reflect-metadata";
import * as classTransformer from "class-transformer";
import * as classValidator from "class-validator";
import { provideLibraries } from ${JSON.stringify(path.join(root, "decorators"))};
import { nestedPeople } from ${JSON.stringify(path.join(root, "test/helpers/dto-apps"))};

provideLibraries({ "class-validator": classValidator, "class-transformer": classTransformer });
const { post } = nestedPeople(classTransformer.Type);
for (const body of [{ age: 3, address: { city: "Oslo" } }, { age: 3, address: { city: 5 } }]) {
  const res = await post(body);
  console.log(JSON.stringify({ status: res.status, body: JSON.parse(res.body) }));
}
`;

test("Bun's bundler: with provideLibraries, a nested @Type DTO is read through the bundle's copy", async () => {
  // inside the repository, so that the bundle's `require` by name finds node_modules (no auto-install)
  const cache = path.join(root, "node_modules/.cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, "switchyard-bun-bundle-"));
  try {
    writeFileSync(path.join(dir, "app.ts"), bunApp);
    // legacy decorators with their metadata
    const tsconfig = { compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true, paths: {} } };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    const bun = bunBinary();
    const run = (args: string[]) =>
      promisify(execFile)(bun, args, { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    await run(["build", "--tsconfig-override=tsconfig.json", "app.ts", "--target=bun", "--outfile=out.js"]);
    const { stdout } = await run(["out.js"]);
    expect(jsonLines(stdout)).toEqual([
      { status: 200, body: { nested: true, city: "Oslo" } },
      {
        status: 400,
        body: {
          error: "the body is invalid",
          errors: [{ in: "body", field: "address.city", constraint: "isString", message: "city must be a string" }],
        },
      },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

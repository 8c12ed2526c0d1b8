import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/typecheck";

/*
 * What the typed clients cost the type checker: a 500-route app (each handler typed from its pattern,
 * returning an object with a Date), served as an edge app is (`export default { fetch: toFetch(app) }`),
 * checked by tsc --extendedDiagnostics without a client, with client(app, handlers) calling each of the
 * 500 handlers once, and with client<typeof app>() calling each of the 500 templates once. The
 * instantiation count is deterministic.
 *
 * Why the baseline is served: a tree's type is lazy, and the first use of the app — serving it, with or
 * without a client — pays for reading what its `alt` serves (13,553 instantiations at 500 routes). An app
 * nobody serves never pays it, so measured against one, a client was billed for the server's own cost.
 * Measured (TypeScript 7.0.2; every size in README.md, "Typed client", and BENCHMARKS.md): 500 routes
 * 297,003 served, 328,074 with the handlers' client (+10.5 %), 358,204 with the app's (+20.6 %; +26.4 %
 * against the same app never served, 283,495); with every route under one match prefix, 318,011 →
 * 395,988 (+24.5 %). Budget: the issue's +25 %, for each.
 */

const TYPES = ["Int", "Text", "Day", "UUID"] as const;
const VALUE_TYPE = { Int: "number", Text: "string", Day: "Day", UUID: "string" };
const ARGUMENT = { Int: "1", Text: '"x"', Day: "null as unknown as Day", UUID: '"x"' };

/** The app's source; `prefixed`: its routes under one `match("/api", alt(…))` instead of each naming `/api`. */
function app(routes: number, withClient: false | "handlers" | "templates", prefixed = false): string {
  const lines = [
    'import { alt, match, route, client, type RoutedRequest, type Day } from "switchyard-router";',
    'import { toFetch } from "switchyard-router/fetch";',
  ];
  for (let i = 0; i < routes; i++) {
    const t = TYPES[i % 4]!;
    lines.push(
      `export const h${i} = (req: RoutedRequest<{ id: ${VALUE_TYPE[t]} }>) => ({ id: req.vars.id, n: ${i}, at: new Date() });`,
    );
  }
  const each = Array.from(
    { length: routes },
    (_, i) => `  route("GET ${prefixed ? "" : "/api"}/r${i}/id:${TYPES[i % 4]}", h${i}),`,
  );
  lines.push(
    prefixed
      ? `export const app = alt(route("GET /health", () => "ok"), match("/api", alt(\n${each.join("\n")}\n)));`
      : `export const app = alt(\n${each.join("\n")}\n);`,
  );
  lines.push("export default { fetch: toFetch(app) };");
  if (withClient === "templates") {
    lines.push('export const api = client<typeof app>({ baseUrl: "http://127.0.0.1:8080" });');
    const calls = Array.from(
      { length: routes },
      (_, i) => `(await api["/api/r${i}/id:${TYPES[i % 4]}"].get({ vars: { id: ${ARGUMENT[TYPES[i % 4]!]} } })).n`,
    );
    lines.push(`export async function use() { return [${calls.join(", ")}]; }`);
  } else if (withClient === "handlers") {
    lines.push(
      `export const api = client(app, { ${Array.from({ length: routes }, (_, i) => `h${i}`).join(", ")} }, { baseUrl: "http://127.0.0.1:8080" });`,
    );
    const calls = Array.from({ length: routes }, (_, i) => `(await api.h${i}({ id: ${ARGUMENT[TYPES[i % 4]!]} })).n`);
    lines.push(`export async function use() { return [${calls.join(", ")}]; }`);
  }
  return `${lines.join("\n")}\n`;
}

function instantiations(source: string): number {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "client-cost-"));
  try {
    writeFileSync(path.join(dir, "app.ts"), source);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          lib: ["ES2022"],
          types: ["node"],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          paths: {
            "switchyard-router": [path.join(ROOT, "src/index.ts")],
            "switchyard-router/fetch": [path.join(ROOT, "src/adapters/fetch.ts")],
          },
        },
        files: ["app.ts"],
      }),
    );
    const run = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir, "--extendedDiagnostics", "--pretty", "false"],
      { cwd: ROOT, encoding: "utf8" },
    );
    const count = /^Instantiations:\s+(\d+)$/m.exec(run.stdout);
    if (count === null || /error TS/.test(run.stdout)) throw new Error(`tsc failed:\n${run.stdout}${run.stderr}`);
    return Number(count[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a client of 500 routes, every one called, costs at most 25% more instantiations than the app served", () => {
  const without = instantiations(app(500, false));
  const handlers = instantiations(app(500, "handlers"));
  const templates = instantiations(app(500, "templates"));
  expect({ without, handlers: handlers / without, templates: templates / without }).toEqual({
    without,
    handlers: expect.any(Number),
    templates: expect.any(Number),
  });
  expect(handlers / without).toBeLessThan(1.25);
  expect(templates / without).toBeLessThan(1.25);
}, 180_000);

test("with every route under one match prefix, the app's client costs at most 25% more (each template joined)", () => {
  const without = instantiations(app(500, false, true));
  const templates = instantiations(app(500, "templates", true));
  expect({ without, templates: templates / without }).toEqual({ without, templates: expect.any(Number) });
  expect(templates / without).toBeLessThan(1.25);
}, 180_000);

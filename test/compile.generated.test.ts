import { execFileSync } from "node:child_process";
import * as path from "node:path";
import fc from "fast-check";
import { alt, compile, inject, interpreter, method, path as literal, pathEnd, pathVar, type RouteNode, Text } from "../src";
import { staticSwitch } from "../src/dispatch/compile/staticSwitch";
import { NONE } from "../src/dispatch/compile/states";

/*
 * The generated layer of the compiled dispatcher: whole static paths answered by a generated
 * `switch` (src/dispatch/compile/staticSwitch.ts), over the table that answers where code
 * generation is forbidden or the code would be too long. Literals must enter the code as data,
 * never as code, whatever they hold.
 */

/** Characters that mean something in JavaScript source or in the dispatcher. */
const HOSTILE = ["__proto__", "constructor", "toString", '"', "'", "`", "\\", "\u2028", "\u2029", "${x}", "*/", "//", "\n", "\r", "\ud800", "é", "a", "b", ";"];

const hostilePath = fc.array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join("")}`);

/** A near miss of `p`: one character changed, one added, or one dropped. */
const nearMisses = (p: string): string[] => [`${p}x`, p.slice(0, -1), `${p.slice(0, -1)}${p.at(-1) === "a" ? "b" : "a"}`, `x${p.slice(1)}`];

describe("staticSwitch (generated code for whole static paths)", () => {
  test("answers exactly like a map for hostile paths, their near misses and same-length collisions", () => {
    fc.assert(
      fc.property(fc.uniqueArray(hostilePath, { minLength: 1, maxLength: 40 }), (paths) => {
        const table = new Map(paths.map((p, route) => [p, route]));
        const lookup = staticSwitch(table);
        expect(lookup).not.toBeNull();
        for (const p of paths) {
          for (const probe of [p, ...nearMisses(p)]) expect(lookup!(probe)).toBe(table.get(probe) ?? NONE);
        }
      }),
      { seed: 1212, numRuns: 300 },
    );
  });

  test("paths of one length differing only past the character the switch reads all answer", () => {
    // same length, same character at every place but the last: one switch case holds them all
    const paths = ["/aaaa", "/aaab", "/aaba", "/abaa", "/baaa", "/aab\\", '/aa"a'];
    const lookup = staticSwitch(new Map(paths.map((p, route) => [p, route])))!;
    paths.forEach((p, route) => expect(lookup(p)).toBe(route));
    expect(lookup("/aabb")).toBe(NONE);
    expect(lookup("/bbbb")).toBe(NONE);
  });

  test("a literal cannot become code", () => {
    const marker = "__switchyardInjected";
    const attacks = [`"; globalThis.${marker} = 1; "`, `\\"; globalThis.${marker} = 1; //`, `\u2028globalThis.${marker} = 1;//`, `*/ globalThis.${marker} = 1; /*`];
    const lookup = staticSwitch(new Map(attacks.map((a, route) => [`/${a}`, route])))!;
    attacks.forEach((a, route) => expect(lookup(`/${a}`)).toBe(route));
    expect(marker in globalThis).toBe(false);
  });

  test("beyond ~300 lines of code it declines (the table answers)", () => {
    const many = (n: number) => new Map(Array.from({ length: n }, (_, i) => [`/p${i}`, i] as const));
    expect(staticSwitch(many(50))).not.toBeNull();
    expect(staticSwitch(many(1000))).toBeNull();
  });
});

const quiet = { onError: () => {} };

/** Hostile literals a route pattern can hold as one segment (no `/`, no lone surrogate). */
const SEGMENTS = HOSTILE.filter((h) => h !== "//" && h !== "\ud800");

/** A tree of static routes (and a variable route first, which shadows some of them), in both dispatchers. */
function staticTree(paths: readonly string[]): RouteNode {
  const routes = paths.map((p, i) => method(i % 3 === 0 ? "POST" : "GET", literal(p, pathEnd(() => `route ${i}`))));
  return alt(literal("/shadow", pathVar("x", Text, pathEnd(() => "variable"))), ...routes);
}

describe.each([
  ["generated switch", 20],
  ["table (too many paths for the switch)", 600],
])("static paths through compile (%s)", (_name, count) => {
  test("every static path, shadowed path and near miss answers as in the interpreter", async () => {
    expect(staticSwitch(new Map(Array.from({ length: count }, (_, i) => [`/${i}`, i])))).toEqual(count < 100 ? expect.any(Function) : null);
    const paths = Array.from({ length: count }, (_, i) => `/${SEGMENTS[i % SEGMENTS.length]}${i}/${i % 7 === 0 ? "shadow" : "s"}`);
    paths.push("/shadow/s");
    const tree = staticTree(paths);
    const router = compile(tree);
    const probes = paths.flatMap((p) => [p, ...nearMisses(p)]).filter((_, i) => i % 13 === 0 || count < 100);
    for (const url of probes) {
      for (const verb of ["GET", "POST", "PUT"]) {
        const request = { method: verb, url: encodeURI(url) };
        expect(await inject(tree, request, quiet)).toEqual(await inject(tree, request, { ...quiet, dispatcher: interpreter }));
      }
      // raw, undecoded targets too (the static front reads them as they come)
      const found = router.find("GET", url);
      const expected = await inject(tree, { method: "GET", url: encodeURI(url) }, { ...quiet, dispatcher: interpreter });
      expect(found === null ? 404 : 200).toBe(expected.status);
    }
  });
});

test("where code generation is forbidden (node --disallow-code-generation-from-strings), the table gives the same answers", () => {
  const script = `
    const sy = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/index.js"))});
    const { staticSwitch } = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/dispatch/compile/staticSwitch.js"))});
    const paths = ${JSON.stringify(SEGMENTS.map((h, i) => `/${h}${i}`))};
    const tree = sy.alt(sy.path("/__proto__0", sy.pathVar("x", sy.Text, sy.pathEnd(() => 0))), ...paths.map((p, i) => sy.method(i % 2 ? "GET" : "POST", sy.path(p, sy.pathEnd(() => i)))));
    const router = sy.compile(tree);
    const answers = [];
    for (const p of paths) for (const probe of [p, p + "x", p.slice(0, -1), p + "/y"]) for (const verb of ["GET", "POST"]) {
      const found = router.find(verb, probe);
      answers.push(found === null ? null : [found.handler(), found.vars, found.rest]);
    }
    process.stdout.write(JSON.stringify({ generated: staticSwitch(new Map([["/a", 1]])) !== null, answers }));
  `;
  const run = (flags: string[]): { generated: boolean; answers: unknown[] } => JSON.parse(execFileSync(process.execPath, [...flags, "-e", script], { encoding: "utf8" }));
  const forbidden = run(["--disallow-code-generation-from-strings"]);
  const allowed = run([]);
  expect(forbidden.generated).toBe(false);
  expect(allowed.generated).toBe(true);
  expect(forbidden.answers).toEqual(allowed.answers);
  expect(allowed.answers.filter((a) => a !== null).length).toBeGreaterThan(SEGMENTS.length);
});

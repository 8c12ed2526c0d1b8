import { execFileSync } from "node:child_process";
import * as path from "node:path";
import fc from "fast-check";
import {
  alt,
  compile,
  type Found,
  guard,
  inject,
  Int,
  interpreter,
  json,
  match,
  method,
  NoParse,
  type PathParser,
  path as literal,
  pathEnd,
  pathVar,
  type RouteNode,
  Text,
} from "../src";
import { type Choice, NONE, routeOf } from "../src/dispatch/compile/answers";
import { buildAutomaton } from "../src/dispatch/compile/build/automaton";
import { CompiledRoute } from "../src/dispatch/compile/compiled-route";
import type { Automaton } from "../src/dispatch/compile/run/automaton";
import { VARS_PROTOTYPE } from "../src/vars";
import { chainsOf } from "../src/chains";
import { generateStaticSwitch } from "../src/dispatch/compile/generate/static-switch";
import { generateFront } from "../src/dispatch/compile/generate/front";

/*
 * The generated layer of the compiled dispatcher: whole static paths answered by a generated
 * `switch` (src/dispatch/compile/generate/static-switch.ts), over the table that answers where code
 * generation is forbidden or the code would be too long. Literals must enter the code as data,
 * never as code, whatever they hold.
 */

/** Characters that mean something in JavaScript source or in the dispatcher. */
const HOSTILE = [
  "__proto__",
  "constructor",
  "toString",
  '"',
  "'",
  "`",
  "\\",
  "\u2028",
  "\u2029",
  "${x}",
  "*/",
  "//",
  "\n",
  "\r",
  "\ud800",
  "é",
  "a",
  "b",
  ";",
];

const hostilePath = fc
  .array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 4 })
  .map((parts) => `/${parts.join("")}`);

/** A near miss of `p`: one character changed, one added, or one dropped. */
const nearMisses = (p: string): string[] => [
  `${p}x`,
  p.slice(0, -1),
  `${p.slice(0, -1)}${p.at(-1) === "a" ? "b" : "a"}`,
  `x${p.slice(1)}`,
];

describe("generateStaticSwitch (generated code for whole static paths)", () => {
  test("answers exactly like a map for hostile paths, their near misses and same-length collisions", () => {
    fc.assert(
      fc.property(fc.uniqueArray(hostilePath, { minLength: 1, maxLength: 40 }), (paths) => {
        const table = new Map(paths.map((p, route) => [p, route]));
        const lookup = generateStaticSwitch(table);
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
    const lookup = generateStaticSwitch(new Map(paths.map((p, route) => [p, route])))!;
    paths.forEach((p, route) => expect(lookup(p)).toBe(route));
    expect(lookup("/aabb")).toBe(NONE);
    expect(lookup("/bbbb")).toBe(NONE);
  });

  test("a literal cannot become code", () => {
    const marker = "__switchyardInjected";
    const attacks = [
      `"; globalThis.${marker} = 1; "`,
      `\\"; globalThis.${marker} = 1; //`,
      `\u2028globalThis.${marker} = 1;//`,
      `*/ globalThis.${marker} = 1; /*`,
    ];
    const lookup = generateStaticSwitch(new Map(attacks.map((a, route) => [`/${a}`, route])))!;
    attacks.forEach((a, route) => expect(lookup(`/${a}`)).toBe(route));
    expect(marker in globalThis).toBe(false);
  });

  test("beyond ~300 lines of code it declines (the table answers)", () => {
    const many = (n: number) => new Map(Array.from({ length: n }, (_, i) => [`/p${i}`, i] as const));
    expect(generateStaticSwitch(many(50))).not.toBeNull();
    expect(generateStaticSwitch(many(1000))).toBeNull();
  });
});

const quiet = { onError: () => {} };

/** Route `id` answers with what it saw, so find and the interpreter can be compared. */
const seen = (id: number) =>
  Object.assign(
    (request: { vars: object; rest: readonly string[] }) => json({ id, vars: request.vars, rest: request.rest }),
    { id },
  );

/** What `find` reported, as the handler {@link seen} would answer it: the route's id, its vars and rest; null for none. */
const reportOf = (found: Found | null) =>
  found === null
    ? null
    : { id: (found.handler as unknown as { id: number }).id, vars: { ...found.vars }, rest: found.rest };

/** What the interpreter answers for `verb` `url`, as {@link seen} reports it; null for a 404. */
async function interpreted(tree: RouteNode, verb: string, url: string): Promise<unknown> {
  const expected = await inject(tree, { method: verb, url }, { ...quiet, dispatcher: interpreter });
  return expected.status === 404 ? null : JSON.parse(expected.body);
}

/** How many times a generated walk hands a known state over to the table walk. */
const handOvers = (walk: unknown): number => String(walk).split("w.walkFrom(p, S").length - 1;

/**
 * What a lookup reports for a walk's `choice` over `path`: the route, its vars and its rest (made by
 * the walk, or bound from its records). Generated code keeps in the records only what these read,
 * unless the automaton keeps them whole (and none of them, where nothing it does reads them).
 */
const reported = (automaton: Automaton, choice: Choice, path: string) => {
  const route = routeOf(choice, automaton);
  if (route === NONE) return { route };
  const chain = automaton.chains[route]!;
  if (typeof choice === "number") {
    const rest = automaton.endedAt(chain.tests.length) ? [] : automaton.restAfter(chain.tests.length, path);
    return { route, vars: Object.entries(new CompiledRoute(chain).bind(null, automaton, path)), rest };
  }
  // what generated code made as it chose the route: its handler, its vars, its rest
  expect([path, choice.handler]).toEqual([path, chain.leaf.kind === "handler" ? chain.leaf.handler : null]);
  return { route, vars: Object.entries(choice.vars), rest: [...choice.rest] };
};

/** The generated walk of `entry` and the table walk alone report the same for `path`. */
const sameReport = (automaton: Automaton, entry: ReturnType<Automaton["entryFor"]>, path: string): void => {
  const byCode = reported(automaton, automaton.firstInPath(entry, path, -1), path);
  expect([path, byCode]).toEqual([
    path,
    reported(automaton, automaton.firstInPath({ ...entry, walk: null }, path, -1), path),
  ]);
};

/** Hostile literals a route pattern can hold as one segment (no `/`, no lone surrogate). */
const SEGMENTS = HOSTILE.filter((h) => h !== "//" && h !== "\ud800");

/** A tree of static routes (and a variable route first, which shadows some of them), in both dispatchers. */
function staticTree(paths: readonly string[]): RouteNode {
  const routes = paths.map((p, i) =>
    method(
      i % 3 === 0 ? "POST" : "GET",
      literal(
        p,
        pathEnd(() => `route ${i}`),
      ),
    ),
  );
  return alt(
    literal(
      "/shadow",
      pathVar(
        "x",
        Text,
        pathEnd(() => "variable"),
      ),
    ),
    ...routes,
  );
}

describe.each([
  ["generated switch", 20],
  ["table (too many paths for the switch)", 600],
])("static paths through compile (%s)", (_name, count) => {
  test("every static path, shadowed path and near miss answers as in the interpreter", async () => {
    expect(generateStaticSwitch(new Map(Array.from({ length: count }, (_, i) => [`/${i}`, i])))).toEqual(
      count < 100 ? expect.any(Function) : null,
    );
    const paths = Array.from(
      { length: count },
      (_, i) => `/${SEGMENTS[i % SEGMENTS.length]}${i}/${i % 7 === 0 ? "shadow" : "s"}`,
    );
    paths.push("/shadow/s");
    const tree = staticTree(paths);
    const router = compile(tree);
    const probes = paths.flatMap((p) => [p, ...nearMisses(p)]).filter((_, i) => i % 13 === 0 || count < 100);
    for (const url of probes) {
      for (const verb of ["GET", "POST", "PUT"]) {
        const request = { method: verb, url: encodeURI(url) };
        expect(await inject(tree, request, quiet)).toEqual(
          await inject(tree, request, { ...quiet, dispatcher: interpreter }),
        );
      }
      // raw, undecoded targets too (the static front reads them as they come)
      const found = router.find("GET", url);
      const expected = await inject(
        tree,
        { method: "GET", url: encodeURI(url) },
        { ...quiet, dispatcher: interpreter },
      );
      expect(found === null ? 404 : 200).toBe(expected.status);
    }
  });
});

test("where code generation is forbidden (node --disallow-code-generation-from-strings), the tables give the same answers", () => {
  const script = `
    const sy = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/index.js"))});
    const { generateStaticSwitch } = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/dispatch/compile/generate/static-switch.js"))});
    const paths = ${JSON.stringify(SEGMENTS.map((h, i) => `/${h}${i}`))};
    const dynamic = [sy.path("/d", sy.pathVar("id", sy.Int, sy.path("/x", sy.pathEnd(() => "int")))), sy.path("/d", sy.pathVar("t", sy.Text, sy.path("/x", sy.pathEnd(() => "text")))), sy.path("/d/e", () => "prefix")];
    const tree = sy.alt(sy.path("/__proto__0", sy.pathVar("x", sy.Text, sy.pathEnd(() => 0))), ...paths.map((p, i) => sy.method(i % 2 ? "GET" : "POST", sy.path(p, sy.pathEnd(() => i)))), ...dynamic);
    const router = sy.compile(tree);
    const answers = [];
    for (const p of [...paths, "/d/12/x", "/d/ab/x", "/d/e/x", "/d/e/y/z", "/d/12/y", "/d"]) for (const probe of [p, p + "x", p.slice(0, -1), p + "/y"]) for (const verb of ["GET", "POST"]) {
      const found = router.find(verb, probe);
      answers.push(found === null ? null : [found.handler(), found.vars, found.rest]);
    }
    const { generateWalk } = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/dispatch/compile/generate/walk.js"))});
    const { buildAutomaton } = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/dispatch/compile/build/automaton.js"))});
    const { chainsOf } = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/chains.js"))});
    const walk = buildAutomaton(chainsOf(tree, true)).entryFor("GET").walk;
    process.stdout.write(JSON.stringify({ generated: [generateStaticSwitch(new Map([["/a", 1]])) !== null, walk !== null, typeof generateWalk], answers }));
  `;
  const run = (flags: string[]): { generated: unknown[]; answers: unknown[] } =>
    JSON.parse(execFileSync(process.execPath, [...flags, "-e", script], { encoding: "utf8" }));
  const forbidden = run(["--disallow-code-generation-from-strings"]);
  const allowed = run([]);
  expect(forbidden.generated).toEqual([false, false, "function"]);
  expect(allowed.generated).toEqual([true, true, "function"]);
  expect(forbidden.answers).toEqual(allowed.answers);
  expect(allowed.answers.filter((a) => a !== null).length).toBeGreaterThan(SEGMENTS.length);
});

describe("the generated walk against the table walk it is layered over", () => {
  const word = fc.constantFrom(
    "a",
    "ab",
    "abc",
    "b",
    "ba",
    "__proto__",
    "constructor",
    '"',
    "\\",
    "\u2028",
    "é",
    "1",
    "12",
  );
  /** A random route: literals, Text and Int variables, exact or a prefix, on GET, POST or any method. */
  const route = fc.record({
    parts: fc.array(
      fc.oneof(
        word.map((w) => ({ literal: w })),
        fc.constantFrom({ text: true }, { int: true }),
      ),
      { minLength: 0, maxLength: 4 },
    ),
    exact: fc.boolean(),
    verb: fc.constantFrom("GET", "POST", null),
  });
  const toTree = (
    routes: {
      parts: ({ literal: string } | { text: boolean } | { int: boolean })[];
      exact: boolean;
      verb: string | null;
    }[],
  ): RouteNode =>
    alt(
      ...routes.map(({ parts, exact, verb }, i) => {
        // without pathEnd, a prefix route (the rest is left over)
        let node: Parameters<typeof method>[1] = exact ? pathEnd(() => `r${i}`) : () => `r${i}`;
        for (let at = parts.length - 1; at >= 0; at--) {
          const part = parts[at]!;
          node =
            "literal" in part
              ? literal(`/${part.literal}`, node)
              : "int" in part
                ? pathVar(`v${at}`, Int, node)
                : pathVar(`v${at}`, Text, node);
        }
        return verb === null ? node : method(verb, node);
      }),
    );
  const target = fc
    .array(fc.oneof(word, fc.constantFrom("", "x", "7", "abcd")), { minLength: 0, maxLength: 6 })
    .map((ws) => `/${ws.join("/")}`);

  test("same route, same records (segments consumed, their bounds, whether the path ended) for random tables and paths; vars made by the code equal vars bound from the records; with records kept only where read, the same report", () => {
    let generated = 0;
    let made = 0;
    fc.assert(
      fc.property(
        fc.array(route, { minLength: 1, maxLength: 12 }),
        fc.array(target, { minLength: 1, maxLength: 20 }),
        (routes, targets) => {
          const chains = chainsOf(toTree(routes), true);
          const automaton = buildAutomaton(chains, true);
          const lean = buildAutomaton(chains);
          for (const verb of ["GET", "POST", "PUT"]) {
            for (const path of targets) sameReport(lean, lean.entryFor(verb), path);
            const entry = automaton.entryFor(verb);
            if (entry.walk === null) continue;
            generated++;
            const tableOnly = { ...entry, walk: null };
            for (const path of targets) {
              const choice = automaton.firstInPath(entry, path, -1);
              const first = routeOf(choice, automaton);
              if (typeof choice !== "number") {
                made++;
                // what binding from the generated walk's own records gives, for the route it chose
                const bound = new CompiledRoute(chains[first]!).bind(null, automaton, path);
                expect(Object.getPrototypeOf(choice.vars)).toBe(VARS_PROTOTYPE);
                expect(Object.entries(choice.vars)).toEqual(Object.entries(bound));
              } else if (handOvers(entry.walk) === 0) expect(first).toBe(NONE);
              // what a miss consumed is never read (and generated code stops at once): only a route's records count
              const record = (first: Choice) =>
                routeOf(first, automaton) === NONE
                  ? { first: NONE }
                  : {
                      first: routeOf(first, automaton),
                      consumed: automaton.consumed,
                      complete: automaton.complete,
                      bounds: automaton.bounds.slice(0, 2 * automaton.consumed),
                      // each consumed segment as Int reads it, through what the walk kept (the table walk keeps its
                      // parsers' values; generated code keeps Int's in locals, and this reads the segment again)
                      parsed: Array.from({ length: automaton.consumed }, (_, depth) =>
                        automaton.value(depth, Int, path),
                      ),
                    };
              const byCode = record(automaton.firstInPath(entry, path, -1));
              const byTable = record(automaton.firstInPath(tableOnly, path, -1));
              expect(byCode).toEqual(byTable);
            }
          }
        },
      ),
      { seed: 1213, numRuns: 400 },
    );
    // most tables start with a literal somewhere: their walks are generated code, which makes the vars of what it finds
    expect(generated).toBeGreaterThan(300);
    expect(made).toBeGreaterThan(300);
  });

  const variable = (int: boolean, next: RouteNode, label = "id") =>
    int ? pathVar(label, Int, next) : pathVar(label, Text, next);
  /** The growth suite's table: `/r<a>/items/<id>/v<b>`, `size` routes, `id` a Text or Int variable. */
  const growthTree = (size: number, typed: boolean): RouteNode => {
    const width = Math.ceil(Math.sqrt(size));
    return alt(
      ...Array.from({ length: size }, (_, i) =>
        literal(
          `/r${i % width}/items`,
          variable(
            typed && i % 2 === 0,
            literal(
              `/v${Math.floor(i / width)}`,
              pathEnd(() => `route ${i}`),
            ),
          ),
        ),
      ),
    );
  };

  test("a small table is generated to its leaves; a larger one keeps its first levels and hands the rest over", () => {
    const small = buildAutomaton(chainsOf(growthTree(10, true), true)).entryFor("GET").walk;
    expect(small).not.toBeNull();
    expect(handOvers(small)).toBe(0);
    // typed segments are read by their parsers inside the generated code (Int in place, into a local)
    expect(String(small)).toContain("I(Q0, p, st, slash)");
    const larger = buildAutomaton(chainsOf(growthTree(256, true), true)).entryFor("GET").walk;
    expect(larger).not.toBeNull();
    expect(handOvers(larger)).toBeGreaterThan(0);
  });

  test.each([10, 40, 100, 256])(
    "at the generated/table boundary (%i routes, typed and text): same route and records as the table walk, and the same report with records kept only where read",
    (size) => {
      const chains = chainsOf(growthTree(size, true), true);
      const automaton = buildAutomaton(chains, true);
      const lean = buildAutomaton(chains);
      const entry = automaton.entryFor("GET");
      expect(entry.walk).not.toBeNull();
      const tableOnly = { ...entry, walk: null };
      const width = Math.ceil(Math.sqrt(size));
      fc.assert(
        fc.property(
          fc.nat(width + 1),
          fc.constantFrom("items", "item", "itemsx", ""),
          fc.constantFrom("7", "x", "", "07"),
          fc.nat(width + 1),
          fc.constantFrom("", "/", "/more", "/a/b"),
          (a, items, id, b, tail) => {
            const path = `/r${a}/${items}/${id}/v${b}${tail}`;
            for (const prefix of [path, path.slice(0, path.lastIndexOf("/")), `/r${a}`]) {
              const record = (first: Choice) =>
                routeOf(first, automaton) === NONE
                  ? [NONE]
                  : [
                      routeOf(first, automaton),
                      automaton.consumed,
                      automaton.complete,
                      automaton.bounds.slice(0, 2 * automaton.consumed),
                      automaton.value(2, Int, prefix),
                    ];
              expect(record(automaton.firstInPath(entry, prefix, -1))).toEqual(
                record(automaton.firstInPath(tableOnly, prefix, -1)),
              );
              sameReport(lean, lean.entryFor("GET"), prefix);
            }
          },
        ),
        { seed: 1214, numRuns: 300 },
      );
    },
  );

  test("routes deeper than any generated level (24 segments, typed ones below depth 16): same route and records as the table walk", () => {
    const deep = (n: number, int: boolean, id: string): RouteNode => {
      let node: RouteNode = pathEnd(() => id);
      for (let at = n - 1; at >= 0; at--)
        node = at % 6 === 5 ? variable(int, node, `v${at}`) : literal(`/s${at}`, node);
      return node;
    };
    const tree = alt(
      deep(24, true, "int"),
      deep(24, false, "text"),
      deep(20, false, "short"),
      literal("/s0", () => "prefix"),
    );
    const automaton = buildAutomaton(chainsOf(tree, true), true);
    const lean = buildAutomaton(chainsOf(tree, true));
    const entry = automaton.entryFor("GET");
    expect(entry.walk).not.toBeNull();
    // generated to depth 16, the table walk below
    expect(handOvers(entry.walk)).toBeGreaterThan(0);
    const tableOnly = { ...entry, walk: null };
    const segments = (n: number, value: string) =>
      Array.from({ length: n }, (_, at) => (at % 6 === 5 ? value : `s${at}`));
    const paths = [24, 20, 23, 25, 17, 16, 3].flatMap((n) =>
      ["7", "x", ""].map((value) => `/${segments(n, value).join("/")}`),
    );
    for (const path of [...paths, ...paths.map((p) => `${p}/`), ...paths.map((p) => p.replace("s18", "s19"))]) {
      const record = (first: Choice) =>
        routeOf(first, automaton) === NONE
          ? [NONE]
          : [
              routeOf(first, automaton),
              automaton.consumed,
              automaton.complete,
              automaton.bounds.slice(0, 2 * automaton.consumed),
            ];
      expect(record(automaton.firstInPath(entry, path, -1))).toEqual(
        record(automaton.firstInPath(tableOnly, path, -1)),
      );
      sameReport(lean, lean.entryFor("GET"), path);
    }
    const found = compile(tree).find("GET", `/${segments(24, "7").join("/")}`)!;
    expect([found.handler(undefined as never), found.vars]).toEqual(["int", { v5: 7, v11: 7, v17: 7, v23: 7 }]);
  });

  test("more than four parsers at one segment (their states built on first use): the generated walk hands the new ones over, same answers", async () => {
    /** Parser `k` accepts a piece whose length is a multiple of k + 1: six parsers whose verdicts overlap. */
    const lengthParser = (k: number): PathParser<number> => ({
      name: `Length${k}`,
      parseUrlPiece: (piece) => (piece.length % (k + 1) === 0 ? piece.length : NoParse),
      toUrlPiece: String,
    });
    const tree = alt(
      literal("/p/fixed", pathEnd(seen(0))),
      ...Array.from({ length: 6 }, (_, k) =>
        literal("/p", pathVar(`v${k}`, lengthParser(k), literal(`/e${k % 2}`, pathEnd(seen(k + 1))))),
      ),
      literal("/p", pathVar("t", Text, pathEnd(seen(7)))),
    );
    const automaton = buildAutomaton(chainsOf(tree, true), true);
    const lean = buildAutomaton(chainsOf(tree, true));
    const entry = automaton.entryFor("GET");
    expect(entry.walk).not.toBeNull();
    expect(String(entry.walk)).toContain(".parsed(p, st, slash, w)");
    const tableOnly = { ...entry, walk: null };
    const router = compile(tree);
    for (let length = 0; length <= 13; length++) {
      for (const tail of ["", "/e0", "/e1", "/e2", "/e0/x"]) {
        const url = `/p/${"x".repeat(length)}${tail}`;
        const record = (first: Choice) =>
          routeOf(first, automaton) === NONE
            ? [NONE]
            : [
                routeOf(first, automaton),
                automaton.consumed,
                automaton.complete,
                automaton.bounds.slice(0, 2 * automaton.consumed),
              ];
        expect(record(automaton.firstInPath(entry, url, -1))).toEqual(
          record(automaton.firstInPath(tableOnly, url, -1)),
        );
        sameReport(lean, lean.entryFor("GET"), url);
        expect([url, reportOf(router.find("GET", url))]).toEqual([url, await interpreted(tree, "GET", url)]);
      }
    }
  });

  test("past 256 routes no code is generated; the table walk answers as the interpreter", async () => {
    const many = alt(
      ...Array.from({ length: 300 }, (_, i) =>
        literal(
          `/r${i}`,
          pathVar(
            "id",
            Text,
            literal(
              "/v",
              pathEnd(() => `route ${i}`),
            ),
          ),
        ),
      ),
    );
    const automaton = buildAutomaton(chainsOf(many, true));
    expect(automaton.entryFor("GET").walk).toBeNull();
    const few = buildAutomaton(
      chainsOf(
        alt(
          literal(
            "/r1",
            pathVar(
              "id",
              Text,
              pathEnd(() => "x"),
            ),
          ),
        ),
        true,
      ),
    );
    expect(few.entryFor("GET").walk).not.toBeNull();
    for (const url of ["/r0/1/v", "/r299/x/v", "/r300/x/v", "/r12/x/w", "/r12/x/v/extra"]) {
      expect(await inject(many, { method: "GET", url }, quiet)).toEqual(
        await inject(many, { method: "GET", url }, { ...quiet, dispatcher: interpreter }),
      );
    }
  });
});

describe("find with escapes and queries anywhere in the target, through generated code and the table walk", () => {
  const special = (first: number): RouteNode[] => [
    literal("/a/b", pathEnd(seen(first))),
    literal("/a", pathVar("x", Text, pathEnd(seen(first + 1)))),
    literal("/n", pathVar("i", Int, pathEnd(seen(first + 2)))),
    literal("/n", pathVar("t", Text, pathEnd(seen(first + 3)))),
    match("/s", seen(first + 4)),
  ];
  /** 256 routes: generated code for the first levels, the table walk below (an earlier literal, a later variable). */
  const wide = (): RouteNode =>
    alt(
      ...Array.from({ length: 250 }, (_, i) =>
        literal(
          `/r${i % 16}/items`,
          pathVar(
            "id",
            Text,
            (i >> 4) % 2 === 0 ? literal(`/v${i >> 4}`, pathEnd(seen(i))) : pathVar("w", Text, pathEnd(seen(i))),
          ),
        ),
      ),
      ...special(250),
    );
  const trees: [string, RouteNode, boolean][] = [
    ["a small table (generated whole)", alt(...special(0)), false],
    ["a table handed over to the table walk", wide(), true],
  ];
  const piece = fc.constantFrom(
    "a",
    "b",
    "%62",
    "n",
    "7",
    "%37",
    "s",
    "x?y",
    "?",
    "%3F",
    "%",
    "%2F",
    "r0",
    "r1",
    "items",
    "v0",
    "v%30",
    "3",
    "",
  );
  const target = fc
    .tuple(fc.array(piece, { minLength: 0, maxLength: 5 }), fc.constantFrom("", "?q=1", "?a/b", "#f"))
    .map(([pieces, tail]) => `/${pieces.join("/")}${tail}`);

  test.each(trees)(
    "%s: same answer as the interpreter for targets with escapes and queries anywhere",
    async (_name, tree, handsOver) => {
      const automaton = buildAutomaton(chainsOf(tree, true));
      expect(automaton.entryFor("GET").walk).not.toBeNull();
      expect(handOvers(automaton.entryFor("GET").walk) > 0).toBe(handsOver);
      const router = compile(tree);
      const fixed = [
        "/a/%62",
        "/a/b?x",
        "/a/b%3F",
        "/n/%37",
        "/n/7?",
        "/s/x%2Fy",
        "/s?q",
        "/r0/items/7/v%30",
        "/r0/items/7/v0?x",
        "/r1/items/%37/v0",
        "/a/",
      ];
      await fc.assert(
        fc.asyncProperty(fc.array(target, { minLength: 1, maxLength: 10 }), async (targets) => {
          for (const url of [...fixed, ...targets]) {
            expect([url, reportOf(router.find("GET", url))]).toEqual([url, await interpreted(tree, "GET", url)]);
          }
        }),
        { seed: 1215, numRuns: 60 },
      );
    },
  );
});

describe("generated code reads the request target as it is: where a `%` or `?` could change the answer", () => {
  const tree = alt(
    match("/pre", seen(5)),
    literal("/pre/x", pathEnd(seen(6))),
    literal("/user/comments", pathEnd(seen(0))),
    literal("/user/lookup", pathVar("name", Text, pathEnd(seen(1)))),
    literal("/n", pathVar("i", Int, pathEnd(seen(2)))),
    match("/user", seen(3)),
    literal("/v", pathVar("t", Text, literal("/end", pathEnd(seen(4))))),
  );
  test.each([
    ["a literal followed by a query", "/user/comments?page=2"],
    ["a literal spelled with an escape (a miss without decoding)", "/user/comment%73"],
    ["a prefix route whose rest holds an escape a better route decodes to", "/user/comment%73"],
    ["a prefix route first, its rest escaped (decoded in the rest)", "/pre/a%41/b%2Fc"],
    ["a prefix route first, its rest followed by a query", "/pre/a?b=/c"],
    ["a prefix route whose rest holds a query", "/user/x?y=/comments"],
    ["a captured segment with an escape", "/user/lookup/al%69ce"],
    ["a captured segment running into the query", "/user/lookup/alice?x=1"],
    ["a captured segment longer than the character loop", "/user/lookup/123e4567-e89b-12d3-a456-426614174000"],
    ["a captured segment with an escape past the character loop", "/user/lookup/abcdefghijklmnop%41"],
    ["a captured segment running into the query past the character loop", "/user/lookup/abcdefghijklmnop?x=/y"],
    ["a long capture, then an escape in a later segment", "/v/abcdefghijklmnopq/en%64"],
    ["an Int spelled with an escape", "/n/%37"],
    ["an Int followed by a query", "/n/7?x"],
    ["a query holding the rest of a route", "/v/a?b=/end"],
    ["an escaped slash in a capture", "/v/a%2Fb/end"],
    ["a miss that is one", "/nothing%20here?x"],
  ])("%s (%s): find and dispatch answer as the interpreter", async (_case, url) => {
    await sameAnswers(tree, url);
  });
});

/** `find` (of `router`, compiled from `tree`) and dispatch answer `url` as the interpreter does. */
async function sameAnswers(tree: RouteNode, url: string, router = compile(tree)): Promise<void> {
  expect([url, reportOf(router.find("GET", url))]).toEqual([url, await interpreted(tree, "GET", url)]);
  const expected = await inject(tree, { method: "GET", url }, { ...quiet, dispatcher: interpreter });
  const dispatched = await inject(tree, { method: "GET", url }, quiet);
  expect([url, dispatched.status, dispatched.body]).toEqual([url, expected.status, expected.body]);
}

describe("a miss told where a literal switch finds no case for a character: only when it is neither `%` nor `?`", () => {
  // at the root, literals that share their first character; the root path a route of its own
  const tree = alt(literal("/ab", pathEnd(seen(0))), literal("/ac", pathEnd(seen(1))), literal("/", pathEnd(seen(2))));
  test.each([
    ["an escape where the literals part", "/a%62"],
    ["an escape as the segment's first character", "/%61c"],
    ["a query as the segment's first character (the root's route)", "/?x=1"],
    ["a query where the literals part", "/a?b"],
    ["a character no literal has there", "/ad"],
    ["the segment ending where the literals part", "/a/b"],
  ])("%s (%s): find and dispatch answer as the interpreter", async (_case, url) => {
    await sameAnswers(tree, url);
  });
  // literals holding a `?` or `%` are in no switch (a raw segment never equals them): where a state
  // has one, a character no switch has may still begin a segment that decodes to it
  const withEscapedLiterals = alt(
    literal("/x", pathEnd(seen(0))),
    literal("/y", pathEnd(seen(1))),
    literal("/a?b", pathEnd(seen(2))),
    literal("/c%d", pathEnd(seen(3))),
  );
  test.each([
    ["a literal with a `?`, spelled escaped", "/a%3Fb"],
    ["a literal with a `%`, spelled escaped", "/c%25d"],
  ])("beside literals no switch has: %s (%s)", async (_case, url) => {
    await sameAnswers(withEscapedLiterals, url);
  });
});

test("a guard's routes bind their vars on top of the guard's from the walk's records, which their generated code keeps whole", async () => {
  // a guard at the root: its routes are routed from the start of the path by a program of their own
  const tree = alt(
    pathVar(
      "tenant",
      Text,
      guard(
        (request: { vars: { tenant: string } }) => request.vars.tenant !== "none",
        alt(
          literal("/items", pathVar("id", Text, pathEnd(seen(0)))),
          literal("/users", pathVar("id", Int, literal("/posts", pathVar("post", Text, pathEnd(seen(1)))))),
        ),
      ),
    ),
    guard(
      () => true,
      alt(literal("/a", pathVar("x", Text, pathEnd(seen(2)))), literal("/b", pathVar("n", Int, pathEnd(seen(3))))),
    ),
  );
  for (const url of [
    "/a/hello",
    "/a/xy",
    "/b/12",
    "/acme/items/7",
    "/acme/items/longer-id",
    "/acme/users/42/posts/first",
    "/none/items/7",
    "/b/x",
  ]) {
    const expected = await inject(tree, { method: "GET", url }, { ...quiet, dispatcher: interpreter });
    const dispatched = await inject(tree, { method: "GET", url }, quiet);
    expect([url, dispatched.status, dispatched.body]).toEqual([url, expected.status, expected.body]);
  }
});

describe("the table walk matches literals where they lie in the path (tables past 256 routes)", () => {
  // literals sharing their first three characters, shorter than three, longer than the character
  // loop, with characters past Latin-1 (the key reads UTF-16 units), and look-alikes of each other
  // (and literals with a `?` or `%`, which only a decoded segment equals: "a?b" is the path /a)
  const WORDS = [
    "comments",
    "commits",
    "com",
    "co",
    "c",
    "ab",
    "abc",
    "abcd",
    // four and five characters: their fourth and fifth are compared beside the key, not sliced
    "abcde",
    "abcd€",
    "abcdefghij",
    "abcdefghik",
    "€uro",
    "日本",
    "ü",
    "__proto__",
    "r1",
    "r10",
    "r1x",
    "a?b",
    "5%",
    "%",
  ];
  const route = fc.record({
    parts: fc.array(
      fc.oneof(
        fc.constantFrom(...WORDS).map((w) => ({ literal: w })),
        fc.constantFrom({ text: true }, { int: true }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    exact: fc.boolean(),
  });
  /** A literal segment holding a `/`: no pattern makes one, but a tree is data; only a decoded `%2F` equals it. */
  const slashed = (next: RouteNode): RouteNode =>
    Object.freeze({ kind: "path", literal: "/a%2Fb", segments: Object.freeze(["a/b"]), next }) as RouteNode;
  const toTree = (
    routes: { parts: ({ literal: string } | { text: boolean } | { int: boolean })[]; exact: boolean }[],
  ): RouteNode =>
    alt(
      ...routes.map(({ parts, exact }, i) => {
        let node: Parameters<typeof method>[1] = exact ? pathEnd(seen(i)) : seen(i);
        for (let at = parts.length - 1; at >= 0; at--) {
          const part = parts[at]!;
          node =
            "literal" in part
              ? literal(`/${part.literal}`, node)
              : "int" in part
                ? pathVar(`v${at}`, Int, node)
                : pathVar(`v${at}`, Text, node);
        }
        return method("GET", node);
      }),
      method("GET", slashed(pathEnd(seen(100)))),
      method("GET", literal("/c", slashed(pathVar("x", Text, pathEnd(seen(101)))))),
      // padding on another method: past 256 routes, no code is generated for any method
      ...Array.from({ length: 257 }, (_, i) => method("PUT", literal(`/pad${i}`, pathEnd(seen(200 + i))))),
    );
  const piece = fc.constantFrom(
    ...WORDS,
    // near misses: one character short or past, changed after the key, the key alone
    "comment",
    "commentsX",
    "commitz",
    "cox",
    "abcdefghi",
    "abcdz",
    "abcxe",
    "abcdefghijk",
    "abcdefghix",
    "€ur",
    "日",
    "r1y",
    "r",
    // escapes: decoded they equal a literal (or hold a `/`), so the walk of decoded segments answers
    "%61b",
    "co%6D",
    "%E2%82%ACuro",
    "a%2Fb",
    "a%2fb",
    "%2F",
    "a%3Fb",
    "5%25",
    "%25",
    // captured segments: short and long (read one by one, or searched natively), with a `%` or `?`
    // in the first characters or past them; what a capture reads next is adapted to the last one
    "",
    "7",
    "x",
    "123",
    "abcdefghijklmnop",
    "1%32",
    "12%33",
    "1?x",
    "abcdefgh%41",
    "abcdefghijk?l",
    "%7A%7Azzzzzzzz",
  );
  const target = fc
    .tuple(fc.array(piece, { minLength: 0, maxLength: 4 }), fc.constantFrom("", "/", "?q=1", "?a/b"))
    .map(([pieces, tail]) => `/${pieces.join("/")}${tail}`);

  test("find and dispatch answer as the interpreter, for random tables and targets", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(route, { minLength: 1, maxLength: 10 }),
        fc.array(target, { minLength: 1, maxLength: 12 }),
        async (routes, targets) => {
          const tree = toTree(routes);
          expect(buildAutomaton(chainsOf(tree, true)).entryFor("GET").walk).toBeNull();
          const router = compile(tree);
          // each route's own path, and near misses of it: one literal's fourth or last character changed
          const own = routes.flatMap(({ parts }) => {
            const spell = (change: (word: string) => string, which: number) =>
              `/${parts.map((part, at) => ("literal" in part ? (at === which ? change(part.literal) : part.literal) : "7")).join("/")}`;
            const near = parts.flatMap((_, at) => [
              spell((w) => `${w.slice(0, 3)}x${w.slice(4)}`, at),
              spell((w) => `${w.slice(0, -1)}x`, at),
            ]);
            return [spell((w) => w, -1), ...near];
          });
          for (const url of ["/a%2Fb", "/c/a%2Fb/7", "/c/a/b/7", "/a/b", ...own, ...targets])
            await sameAnswers(tree, url, router);
        },
      ),
      { seed: 1216, numRuns: 80 },
    );
  });
});

describe("walks deeper than the records start with room for (32 segments: a walk makes more first)", () => {
  /** `/s0/s1/…` to `n` segments, the ones at `typed` captured (Int where the depth is even, else Text). */
  const deep = (n: number, typed: readonly number[], id: number, exact = true): RouteNode => {
    let node: RouteNode = exact ? pathEnd(seen(id)) : alt(seen(id));
    for (let at = n - 1; at >= 0; at--)
      node = !typed.includes(at)
        ? literal(`/s${at}`, node)
        : at % 2 === 0
          ? pathVar(`v${at}`, Int, node)
          : pathVar(`v${at}`, Text, node);
    return node;
  };
  const segments = (n: number, values: Record<number, string>) =>
    Array.from({ length: n }, (_, at) => values[at] ?? `s${at}`);
  const routes = [
    method("GET", deep(70, [2, 35, 40, 50, 69], 0)),
    method("GET", deep(70, [2, 40, 69], 1)),
    method("GET", deep(40, [2, 36], 2, false)),
  ];
  // on its own (generated code to depth 16, the table walk below), and past 256 routes (the table walk alone)
  const small = alt(...routes);
  const large = alt(
    ...routes,
    ...Array.from({ length: 257 }, (_, i) => method("PUT", literal(`/pad${i}`, pathEnd(seen(300 + i))))),
  );
  const urls = [
    `/${segments(70, { 2: "7", 35: "y", 40: "8", 50: "9", 69: "ten" }).join("/")}`,
    // route 0's Int at depth 50 fails: route 1
    `/${segments(70, { 2: "7", 40: "8", 69: "z" }).join("/")}`,
    `/${segments(70, { 2: "7", 35: "y", 40: "8", 50: "9", 69: "ten" }).join("/")}?q=1`,
    // escapes past depth 32: the walk of decoded segments
    `/${segments(70, { 2: "7", 35: "y", 40: "%38", 45: "s%345", 50: "9", 69: "ten" }).join("/")}`,
    // longer than the exact routes: the prefix route, with its rest
    `/${segments(71, { 2: "7", 36: "5", 40: "8", 50: "9", 69: "ten" }).join("/")}`,
    `/${segments(64, { 2: "7", 36: "5" }).join("/")}`,
    `/${segments(40, { 2: "7", 36: "5" }).join("/")}`,
    `/${segments(40, { 2: "7", 36: "x" }).join("/")}`,
    `/${segments(39, { 2: "7" }).join("/")}`,
  ];

  test.each([
    ["on its own", small],
    ["past 256 routes", large],
  ])("find and dispatch answer as the interpreter (%s), the walk first and after shallower ones", async (_, tree) => {
    const router = compile(tree);
    // a shallow walk first: the records then grow from where every walk leaves them
    expect(router.find("GET", "/s0")).toBeNull();
    for (const url of [...urls, ...[...urls].reverse()]) await sameAnswers(tree, url, router);
    const deepest = router.find("GET", urls[0]!)!;
    expect(deepest.vars).toEqual({ v2: 7, v35: "y", v40: 8, v50: 9, v69: "ten" });
  });

  test("the records grow to the deepest segment walked, by the table walk and by the walk of decoded segments", () => {
    const chains = chainsOf(large, true);
    const byTable = buildAutomaton(chains);
    expect(byTable.bounds).toHaveLength(64);
    expect(routeOf(byTable.firstInTargetByTable(byTable.entryFor("GET"), urls[0]!), byTable)).toBe(0);
    expect(byTable.bounds.slice(2 * 69, 2 * 70)).toEqual([urls[0]!.lastIndexOf("/") + 1, urls[0]!.length]);
    expect(byTable.parsedAt.length).toBeGreaterThanOrEqual(70);
    expect(byTable.bounds).toHaveLength(2 * byTable.parsedAt.length);
    const bySegments = buildAutomaton(chains);
    const decoded = segments(70, { 2: "7", 35: "y", 40: "8", 50: "9", 69: "ten" });
    expect(bySegments.firstInSegments(bySegments.entryFor("GET"), decoded, 0, -1)).toBe(0);
    expect(bySegments.value(69, Text, "")).toBe("ten");
    expect(bySegments.value(50, Int, "")).toBe(9);
    expect(bySegments.parsedAt.length).toBeGreaterThanOrEqual(70);
    expect(bySegments.bounds).toHaveLength(2 * bySegments.parsedAt.length);
  });
});

describe("find's generated front: the method told by `===`, then the entry's static paths and walk", () => {
  // methods are data, never code: tokens with quotes and `$` among them
  const METHODS = ["GET", "POST", "M'X", "`$`", "$+"];
  const word = fc.constantFrom("a", "ab", "1", "12", "__proto__", "x");
  const route = fc.record({
    parts: fc.array(
      fc.oneof(
        word.map((w) => ({ literal: w })),
        fc.constantFrom({ text: true }, { int: true }),
      ),
      { minLength: 0, maxLength: 3 },
    ),
    exact: fc.boolean(),
    verb: fc.constantFrom(...METHODS, null),
  });
  const toTree = (
    routes: {
      parts: ({ literal: string } | { text: boolean } | { int: boolean })[];
      exact: boolean;
      verb: string | null;
    }[],
  ): RouteNode =>
    alt(
      ...routes.map(({ parts, exact, verb }, i) => {
        let node: Parameters<typeof method>[1] = exact ? pathEnd(seen(i)) : seen(i);
        for (let at = parts.length - 1; at >= 0; at--) {
          const part = parts[at]!;
          node =
            "literal" in part
              ? literal(`/${part.literal}`, node)
              : "int" in part
                ? pathVar(`v${at}`, Int, node)
                : pathVar(`v${at}`, Text, node);
        }
        return verb === null ? node : method(verb, node);
      }),
    );
  // plain paths, and ones the front leaves to find's own code: a query, an escape, no leading `/`
  const target = fc
    .tuple(
      fc.array(fc.oneof(word, fc.constantFrom("", "a%62", "7")), { maxLength: 4 }),
      fc.constantFrom("", "?q=1", "/"),
    )
    .map(([ws, tail]) => `/${ws.join("/")}${tail}`);
  const targets = fc.array(fc.oneof(target, fc.constantFrom("*", "http://h/a/1")), { minLength: 1, maxLength: 8 });

  test("answers as the interpreter for random tables over several methods (some with routes of no method), every method and a method with no routes", async () => {
    let fronted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(route, { minLength: 1, maxLength: 10 }), targets, async (routes, urls) => {
        const tree = toTree(routes);
        const automaton = buildAutomaton(chainsOf(tree, true));
        if (
          generateFront(automaton.byMethod(), automaton, {
            staticRoute: () => null,
            fromRecords: () => null,
            undecided: () => null,
            general: () => null,
          }) !== null
        )
          fronted++;
        const router = compile(tree);
        for (const verb of [...METHODS, "PUT"]) {
          for (const url of urls) {
            expect([verb, url, reportOf(router.find(verb, url))]).toEqual([
              verb,
              url,
              await interpreted(tree, verb, url),
            ]);
          }
        }
      }),
      { seed: 1215, numRuns: 150 },
    );
    // most tables have a literal somewhere, so some method's walk is generated code with the front before it
    expect(fronted).toBeGreaterThan(100);
  });

  test("a method literal cannot become code", () => {
    const marker = "__switchyardFrontInjected";
    const attacks = [`GET";globalThis.${marker}=1;"`, `\`+(globalThis.${marker}=1)+\``];
    const automaton = { walk: () => NONE, staticCode: null, statics: null, start: null };
    const front = generateFront(
      { methods: attacks, entries: [automaton, automaton], otherwise: automaton },
      buildAutomaton([]),
      {
        staticRoute: () => "static",
        fromRecords: () => "chosen",
        undecided: () => "undecided",
        general: () => "general",
      },
    );
    expect(front).not.toBeNull();
    for (const m of [...attacks, "GET"]) expect(front!(m, "/a")).toBeNull();
    expect(marker in globalThis).toBe(false);
  });
});

test("segments that are proper prefixes of the literals (generated code reads past the path's end) answer as the interpreter, before and after V8 optimizes the walk", async () => {
  const tree = alt(
    method("GET", literal("/user", pathEnd(seen(0)))),
    method("GET", literal("/users", pathEnd(seen(1)))),
    method("GET", literal("/userx", pathVar("id", Int, pathEnd(seen(2))))),
    method("GET", literal("/ab/cd", pathEnd(seen(3)))),
  );
  const router = compile(tree);
  const urls = [
    "/u",
    "/us",
    "/use",
    "/user",
    "/users",
    "/usersx",
    "/userx",
    "/userx/",
    "/userx/7",
    "/a",
    "/ab",
    "/ab/",
    "/ab/c",
    "/ab/cd",
    "/ab/cde",
    "/abccd",
    "/",
  ];
  const expected = new Map<string, unknown>();
  for (const url of urls) expected.set(url, await interpreted(tree, "GET", url));
  const report = (url: string) => reportOf(router.find("GET", url));
  // the full paths first, so that the walk is optimized before any read past the end
  for (let round = 0; round < 20_000; round++) report(urls[3 + (round % 2)]!);
  for (let round = 0; round < 3; round++) {
    for (const url of urls) expect([url, report(url)]).toEqual([url, expected.get(url)]);
    for (let i = 0; i < 5_000; i++) report(urls[i % urls.length]!);
  }
});

test("find's front where a method's static paths are a table (too many for their switch) beside its generated walk: the table answers them", async () => {
  const tree = alt(
    ...Array.from({ length: 250 }, (_, i) => literal(`/p${i}/x${i % 7}`, pathEnd(seen(i)))),
    literal("/p", pathVar("v", Text, pathEnd(seen(250)))),
  );
  const automaton = buildAutomaton(chainsOf(tree, true));
  const entry = automaton.entryFor("GET");
  expect([entry.walk !== null, entry.staticCode, entry.statics !== null]).toEqual([true, null, true]);
  const front = generateFront(automaton.byMethod(), automaton, {
    staticRoute: (route) => route,
    fromRecords: () => null,
    undecided: () => null,
    general: () => null,
  });
  expect(String(front)).toContain("A.firstStatic(E0, u)");
  // through the front, static paths are answered by the table before the walk is called
  for (const i of [0, 1, 77, 249]) expect(front!("GET", `/p${i}/x${i % 7}`)).toBe(i);
  const router = compile(tree);
  for (const url of ["/p0/x0", "/p77/x0", "/p249/x4", "/p249/x5", "/p/anything", "/p250/x5", "/p1"])
    await sameAnswers(tree, url, router);
});

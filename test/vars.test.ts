import { execFileSync } from "node:child_process";
import path from "node:path";
import fc from "fast-check";
import {
  alt,
  compile,
  guard,
  inject,
  Int,
  interpreter,
  path as literal,
  pathEnd,
  pathVar,
  routeMismatch,
  Text,
  type PathParser,
  type RouteNode,
} from "../src";
import { NO_VARS, varsShape, varsWith, VARS_PROTOTYPE } from "../src/vars";
import { inheritance, INHERITS_NOTHING } from "./helpers/vars";

/*
 * The vars rule (src/vars.ts): nothing is inherited, any label is an own property that reads back
 * its value, and every guard or handler call gets a writable object of its own — in both dispatchers.
 */

const HOSTILE = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "prototype",
  "__defineGetter__",
  "then",
  "7",
  "0",
  "-1",
  "",
  " ",
  'a"b',
  "a\\b",
  "\u2028",
  "\n",
  "${x}",
  "'); throw 1; ('",
  "*/",
  "é",
  "😀",
];
const label = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 6 }));
const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.object());

/** What an ordinary object given the same labels by `defineProperty`, in order, holds: the reference. */
function reference(labels: readonly string[], values: readonly unknown[]): { keys: string[]; values: unknown[] } {
  const plain: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  labels.forEach((l, i) =>
    Object.defineProperty(plain, l, { value: values[i], writable: true, enumerable: true, configurable: true }),
  );
  return { keys: Object.keys(plain), values: Object.values(plain) };
}

function untouchedObjectPrototype(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(OBJECT_PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
}
const OBJECT_PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

describe("varsShape", () => {
  test("any labels: own properties in order (a repeat keeps its place and takes the last value), nothing inherited", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(label, value), { maxLength: 8 }), (pairs) => {
        const labels = pairs.map(([l]) => l);
        const values = pairs.map(([, v]) => v);
        const vars = varsShape(labels)(...values);
        const want = reference(labels, values);
        expect(Object.keys(vars)).toEqual(want.keys);
        expect(Object.values(vars)).toEqual(want.values);
        for (const key of want.keys)
          expect(Object.getOwnPropertyDescriptor(vars, key)).toEqual({
            value: vars[key],
            writable: true,
            enumerable: true,
            configurable: true,
          });
        expect(inheritance(vars)).toEqual(INHERITS_NOTHING);
        expect(Object.getPrototypeOf(vars)).toBe(VARS_PROTOTYPE);
        expect("toString" in vars).toBe(want.keys.includes("toString"));
        untouchedObjectPrototype();
      }),
      { seed: 12, numRuns: 500 },
    );
  });

  test("the interpreter's varsWith, one label at a time from NO_VARS, makes the same objects as varsShape", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(label, value), { maxLength: 8 }), (pairs) => {
        const labels = pairs.map(([l]) => l);
        const values = pairs.map(([, v]) => v);
        const stepped = pairs.reduce((vars, [l, v]) => varsWith(vars, l, v), NO_VARS);
        const copied = varsWith(stepped);
        const shaped = varsShape(labels)(...values);
        for (const vars of [stepped, copied]) {
          expect(Reflect.ownKeys(vars)).toEqual(Reflect.ownKeys(shaped));
          for (const key of Object.keys(shaped))
            expect(Object.getOwnPropertyDescriptor(vars, key)).toEqual(Object.getOwnPropertyDescriptor(shaped, key));
          expect(Object.getPrototypeOf(vars)).toBe(VARS_PROTOTYPE);
        }
        expect(copied).not.toBe(stepped);
        untouchedObjectPrototype();
      }),
      { seed: 12, numRuns: 500 },
    );
  });

  test("a __proto__ label holding an object is a value, not a prototype", () => {
    const vars = varsShape(["__proto__", "x"])({ polluted: true }, 1) as Record<string, unknown>;
    expect(Object.getPrototypeOf(vars)).toBe(VARS_PROTOTYPE);
    expect(vars["__proto__"]).toEqual({ polluted: true });
    expect(vars["polluted"]).toBeUndefined();
    untouchedObjectPrototype();
  });

  test("objects are writable and their own; the shared prototype and NO_VARS are frozen and empty", () => {
    const make = varsShape(["id"]);
    const a = make(1) as Record<string, unknown>;
    const b = make(2) as Record<string, unknown>;
    a["id"] = 10;
    a["toString"] = "mine";
    expect(b).toEqual({ id: 2 });
    expect("toString" in b).toBe(false);
    expect(Object.isFrozen(VARS_PROTOTYPE) && Object.isFrozen(NO_VARS)).toBe(true);
    expect(Reflect.ownKeys(VARS_PROTOTYPE)).toEqual([]);
    expect(inheritance(NO_VARS)).toEqual(INHERITS_NOTHING);
  });

  test("where code generation is forbidden (node --disallow-code-generation-from-strings), the same objects", () => {
    const labels = ["id", "__proto__", "7", "constructor", 'a"b', "id"];
    const script = `
      const { varsShape, VARS_PROTOTYPE } = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/vars.js"))});
      let generation = true;
      try { new Function(""); } catch { generation = false; }
      const vars = varsShape(${JSON.stringify(labels)})("a", { p: 1 }, "c", "d", "e", "f");
      const descriptors = Object.getOwnPropertyNames(vars).map((k) => [k, Object.getOwnPropertyDescriptor(vars, k)]);
      process.stdout.write(JSON.stringify({ generation, descriptors, proto: Object.getPrototypeOf(vars) === VARS_PROTOTYPE, polluted: {}.p ?? null }));
    `;
    const run = (flags: string[]): unknown =>
      JSON.parse(execFileSync(process.execPath, [...flags, "-e", script], { encoding: "utf8" }));
    const forbidden = run(["--disallow-code-generation-from-strings"]) as { generation: boolean };
    const allowed = run([]) as { generation: boolean };
    expect(forbidden.generation).toBe(false);
    expect(allowed.generation).toBe(true);
    expect({ ...forbidden, generation: null }).toEqual({ ...allowed, generation: null });
    expect(allowed).toMatchObject({ proto: true, polluted: null });
  });
});

const dispatchers = [
  ["compiled", {}],
  ["interpreter", { dispatcher: interpreter }],
] as const;

describe.each(dispatchers)("request.vars in handlers and guards (%s)", (_name, options) => {
  test("hostile labels (random lists) read back their values; nothing inherited; the same as the other dispatcher", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...HOSTILE.filter((l) => l !== "")), { minLength: 1, maxLength: 5 }),
        async (labels) => {
          let tree: RouteNode = pathEnd((request) => ({
            keys: Object.keys(request.vars),
            values: Object.values(request.vars),
            inherits: inheritance(request.vars),
          }));
          for (const l of [...labels].reverse()) tree = pathVar(l, Text, tree);
          const url = `/${labels.map((_, i) => `v${i}`).join("/")}`;
          const got = await inject(tree, { url }, options);
          const other = await inject(tree, { url }, options === dispatchers[0][1] ? { dispatcher: interpreter } : {});
          const want = reference(
            labels,
            labels.map((_, i) => `v${i}`),
          );
          expect(JSON.parse(got.body)).toEqual({ ...want, inherits: INHERITS_NOTHING });
          expect(got.body).toBe(other.body);
          untouchedObjectPrototype();
        },
      ),
      { seed: 5, numRuns: 60 },
    );
  });

  test("writing to vars never throws and is seen by no other call: with and without variables, after routeMismatch, under a guard, in the next request", async () => {
    const log: unknown[] = [];
    const writer = (tag: string) => (request: { vars: Readonly<Record<string, unknown>> }) => {
      const vars = request.vars as Record<string, unknown>;
      log.push({ tag, before: { ...vars } });
      vars["written"] = tag; // strict-mode code: this would throw on a frozen object
      vars["id"] = -1;
      return routeMismatch();
    };
    const tree = alt(
      literal(
        "/none",
        alt(
          pathEnd(writer("none 1")),
          pathEnd(writer("none 2")),
          pathEnd(() => "none"),
        ),
      ),
      literal(
        "/with",
        pathVar(
          "id",
          Int,
          alt(
            pathEnd(writer("with 1")),
            pathEnd(writer("with 2")),
            pathEnd((r) => ({ ...r.vars })),
          ),
        ),
      ),
      literal(
        "/guarded",
        pathVar(
          "id",
          Int,
          guard(
            (request) => {
              const vars = request.vars as Record<string, unknown>;
              log.push({ tag: "guard", before: { ...vars } });
              vars["written"] = "guard";
              return true;
            },
            alt(
              pathEnd(writer("under guard")),
              pathVar(
                "more",
                Text,
                pathEnd((r) => ({ ...r.vars })),
              ),
            ),
          ),
        ),
      ),
    );
    for (let i = 0; i < 2; i++) {
      expect((await inject(tree, { url: "/none" }, options)).body).toBe("none");
      expect(JSON.parse((await inject(tree, { url: "/with/7" }, options)).body)).toEqual({ id: 7 });
      expect((await inject(tree, { url: "/guarded/8" }, options)).status).toBe(404);
      expect(JSON.parse((await inject(tree, { url: "/guarded/9/x" }, options)).body)).toEqual({ id: 9, more: "x" });
    }
    const once = [
      { tag: "none 1", before: {} },
      { tag: "none 2", before: {} },
      { tag: "with 1", before: { id: 7 } },
      { tag: "with 2", before: { id: 7 } },
      { tag: "guard", before: { id: 8 } },
      { tag: "under guard", before: { id: 8 } },
      { tag: "guard", before: { id: 9 } },
    ];
    expect(log).toEqual([...once, ...once]);
  });

  test("long and many-segment paths bind every variable", async () => {
    const labels = Array.from({ length: 40 }, (_, i) => `v${i}`);
    let tree: RouteNode = pathEnd((request) => request.vars);
    for (const l of [...labels].reverse())
      tree = pathVar(l, (l.endsWith("7") ? Int : Text) as PathParser<unknown>, tree);
    const segments = labels.map((l, i) => (l.endsWith("7") ? String(i) : `${l}-${"x".repeat(200)}`));
    const got = JSON.parse((await inject(tree, { url: `/${segments.join("/")}` }, options)).body);
    expect(got).toEqual(Object.fromEntries(labels.map((l, i) => [l, l.endsWith("7") ? i : segments[i]])));
  });
});

test("find gives each lookup a new object that inherits nothing, also for routes without variables", () => {
  const router = compile(
    alt(
      literal(
        "/static",
        pathEnd(() => "s"),
      ),
      pathVar(
        "id",
        Int,
        pathEnd(() => "i"),
      ),
    ),
  );
  for (const url of ["/static", "/12"]) {
    const a = router.find("GET", url)!.vars;
    const b = router.find("GET", url)!.vars;
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
    expect(inheritance(a)).toEqual(INHERITS_NOTHING);
    (a as Record<string, unknown>)["x"] = 1;
    expect("x" in b).toBe(false);
  }
});

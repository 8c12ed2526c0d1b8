import fc from "fast-check";
import {
  allowedMethods,
  Bool,
  compile,
  Day,
  Double,
  type Handler,
  Int,
  Int64,
  Integer,
  interpret,
  type PathParser,
  shadowed,
  Text,
  UrlError,
  urlFor,
  UUID,
  Word,
} from "../src";
import { Even, randomTrees, REQUEST_METHODS, requestsFor, targetOf, type Template } from "./helpers/random-routes";

/*
 * The route tools against the dispatcher, on random trees (seeded). `find` takes guards as passing and
 * never sees routeMismatch(), exactly the assumptions of the shadow report and of 405/Allow.
 */

const TREES = 200;
const SEED = 9;

function handlerIndex(handlers: readonly Handler<never>[], found: { handler: Handler<never> } | null): number {
  return found === null ? -1 : handlers.indexOf(found.handler);
}

describe("shadowed: no false alarms, no missed shadows (requests built from each route's template)", () => {
  test("a reported route is never what find answers, and a route find never answers is reported", () => {
    let reported = 0;
    let requests = 0;
    fc.assert(
      fc.property(randomTrees, ({ tree, templates }) => {
        const router = compile(tree);
        const handlers = templates.map((t) => t.handler);
        const report = new Map(shadowed(tree).map((s) => [s.route.leaf.handler, s]));
        reported += report.size;
        for (const template of templates.filter((t) => t.possible)) {
          const aimed = requestsFor(template);
          requests += aimed.length;
          const answered = aimed.filter(
            (r) => router.find(r.method, targetOf(r.segments))?.handler === template.handler,
          );
          const entry = report.get(template.handler);
          if (entry !== undefined) {
            // direction 1: earlier routes take every request built for it
            expect(answered).toEqual([]);
            for (const r of aimed) {
              const by = handlerIndex(handlers, router.find(r.method, targetOf(r.segments)));
              expect(by).toBeGreaterThanOrEqual(0);
              expect(by).toBeLessThan(handlers.indexOf(template.handler));
            }
            // and the routes it names are earlier ones
            for (const b of entry.by)
              expect(handlers.indexOf(b.leaf.handler)).toBeLessThan(handlers.indexOf(template.handler));
          } else if (aimed.length > 0) {
            // direction 2: a route none of its own requests reach is in the report
            expect(answered.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: TREES, seed: SEED },
    );
    // the sample exercised both outcomes (sizes for the notes)
    expect(reported).toBeGreaterThan(0);
    expect(requests).toBeGreaterThan(TREES);
  });
});

describe("allowedMethods agrees with the interpreter", () => {
  test("the methods under which a path is answered, for paths built from the routes and one no route has", async () => {
    await fc.assert(
      fc.asyncProperty(randomTrees, async ({ tree, templates }) => {
        const targets = new Set(
          templates.filter((t) => t.possible).flatMap((t) => requestsFor(t, 12).map((r) => targetOf(r.segments))),
        );
        targets.add("/nowhere/at/all");
        for (const target of targets) {
          const answering: string[] = [];
          for (const m of [...REQUEST_METHODS, "PURGE"]) {
            // guards pass and handlers answer in these trees: answered exactly when a route's tests accept
            if ((await interpret(tree, { method: m, url: target })) !== null) answering.push(m);
          }
          const allowed = allowedMethods(tree, target);
          expect(allowed === "any" ? [...REQUEST_METHODS, "PURGE"].sort() : [...allowed].sort()).toEqual(
            answering.sort(),
          );
        }
      }),
      { numRuns: 100, seed: SEED },
    );
  });
});

/** Random values of a parser's type (what a caller hands to urlFor). */
function valuesOf(parser: PathParser<unknown>): fc.Arbitrary<unknown> {
  switch (parser) {
    case Int:
      return fc.maxSafeInteger();
    case Word:
      return fc.maxSafeNat();
    case Int64:
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case Integer:
      return fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });
    case Double:
      return fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0));
    case Bool:
      return fc.boolean();
    case Text:
      return fc.string({ unit: "grapheme", maxLength: 8 });
    case UUID:
      return fc.uuid();
    case Day:
      return fc
        .record({
          y: fc.integer({ min: -9999, max: 99999 }),
          m: fc.integer({ min: 1, max: 12 }),
          d: fc.integer({ min: 1, max: 28 }),
        })
        .map(({ y, m, d }) => Day.of(y, m, d));
    case Even:
      return fc.integer({ min: -1e9, max: 1e9 }).map((n) => n * 2);
    default:
      throw new Error(`no values for ${parser.name}`);
  }
}

describe("urlFor: find reads back the values it wrote", () => {
  test("the same route and the same vars, unless an earlier route answers that URL", () => {
    let same = 0;
    let earlier = 0;
    fc.assert(
      fc.property(randomTrees, fc.gen(), ({ tree, templates }, gen) => {
        const router = compile(tree);
        const handlers = templates.map((t) => t.handler);
        templates
          .filter((t) => t.possible)
          .forEach((template: Template, index) => {
            const vars: Record<string, unknown> = {};
            for (const part of template.parts)
              if (typeof part !== "string") vars[part.label] = gen(() => valuesOf(part.parser));
            const rest = template.exact
              ? []
              : gen(() => fc.array(fc.string({ unit: "grapheme", minLength: 1, maxLength: 4 }), { maxLength: 2 }));
            const only = template.parts.length === 1 && rest.length === 0 ? template.parts[0]! : undefined;
            if (only !== undefined && typeof only !== "string" && vars[only.label] === "") {
              expect(() => urlFor(tree, template.handler, vars, { rest })).toThrow(UrlError);
              return;
            }
            const url = urlFor(tree, template.handler, vars, { rest });
            const found = router.find(template.method ?? "GET", url);
            expect(found).not.toBeNull();
            if (found!.handler === template.handler) {
              same++;
              expect({ ...found!.vars }).toEqual(vars);
              expect(found!.rest).toEqual(rest);
            } else {
              earlier++;
              expect(handlers.indexOf(found!.handler)).toBeLessThan(handlers.indexOf(template.handler));
            }
            void index;
          });
      }),
      { numRuns: TREES, seed: SEED },
    );
    // both cases occur in the sample (sizes for the notes)
    expect(same).toBeGreaterThan(0);
    expect(earlier).toBeGreaterThan(0);
  });
});

import { alt, compile, Int, method, path, pathEnd, pathVar, Text } from "../src";
import { chainsOf } from "../src/chains";
import { type MadeByCode, NO_REST, NONE, routeOf, UNDECIDED } from "../src/dispatch/compile/answers";
import { buildAutomaton } from "../src/dispatch/compile/build/automaton";

/*
 * The worked examples of src/dispatch/compile/answers.ts (and of the README beside it), checked on
 * the code: the tree they all use, and what each step answers for each request they name.
 */

const byId = () => "id";
const byName = () => "name";
const files = () => "files";

/** route 0 GET /users/{id:Int}; route 1 GET /users/{name:Text}; route 2 GET /files (a prefix). */
const tree = alt(
  method("GET", path("/users", pathVar("id", Int, pathEnd(byId)))),
  method("GET", path("/users", pathVar("name", Text, pathEnd(byName)))),
  method("GET", path("/files", files)),
);

const automaton = buildAutomaton(chainsOf(tree, true));
const entry = automaton.entryFor("GET");
const walk = entry.walk!;
const tableOnly = { ...entry, walk: null };

test("the example tree has generated code (the examples speak of it)", () => {
  expect(walk).not.toBeNull();
});

test("NONE: a miss; and the end of a state's ascending route lists", () => {
  expect(NONE).toBe(0x7fffffff);
  expect(walk("/nothing", automaton)).toBe(NONE);
  expect(automaton.firstInPath(tableOnly, "/nothing", -1)).toBe(NONE);
  expect(compile(tree).find("GET", "/nothing")).toBeNull();
  const users = entry.start!.literals().find(([literal]) => literal === "users")![1]!;
  // the state after /users/42: both typed routes accept 42, route 0 first; after /users/bob: route 1
  expect(users.targetOf(1)!.endRoutes).toEqual([0, 1, NONE]);
  expect(users.targetOf(0)!.endRoutes).toEqual([1, NONE]);
});

test("UNDECIDED: a `%` or `?` where it matters, or a target not starting with `/`; find then decodes", () => {
  expect(walk("/users/b%20b", automaton)).toBe(UNDECIDED);
  expect(walk("*", automaton)).toBe(UNDECIDED);
  expect(automaton.firstInTargetByTable(entry, "/users/b%20b")).toBe(UNDECIDED);
  const found = compile(tree).find("GET", "/users/b%20b")!;
  expect([found.handler, found.vars]).toEqual([byName, { name: "b b" }]);
  expect(automaton.firstInSegments(entry, ["users", "b b"], 0, -1)).toBe(1);
});

test("NO_REST: the one frozen empty rest of a route that consumed the whole path", () => {
  const router = compile(tree);
  expect(router.find("GET", "/users/42")!.rest).toBe(NO_REST);
  expect(router.find("GET", "/files")!.rest).toBe(NO_REST);
  expect(router.find("GET", "/files/a/b")!.rest).toEqual(["a", "b"]);
  expect(Object.isFrozen(NO_REST)).toBe(true);
});

test("MadeByCode and `chosen`: what generated code makes of the route it chose, its number on the side", () => {
  const made = walk("/users/42", automaton) as MadeByCode;
  expect(made).toEqual({ handler: byId, vars: { id: 42 }, rest: NO_REST });
  expect(made.rest).toBe(NO_REST);
  expect(automaton.chosen).toBe(0);
  expect(routeOf(made, automaton)).toBe(0);
  const bob = walk("/users/bob", automaton) as MadeByCode;
  expect([bob.vars, automaton.chosen]).toEqual([{ name: "bob" }, 1]);
});

test("Choice: a route number from the table walk (vars bound from its records), or MadeByCode", () => {
  const choice = automaton.firstInPath(tableOnly, "/users/42", -1);
  expect(choice).toBe(0);
  expect(routeOf(choice, automaton)).toBe(0);
  expect(automaton.value(1, Int, "/users/42")).toBe(42);
  expect(typeof automaton.firstInPath(entry, "/users/42", -1)).toBe("object");
});

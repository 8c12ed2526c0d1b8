import { alt, explainCompiled, guard, match, route } from "../src";

/*
 * The generated code (and the automaton it is generated from) for a few fixed trees, as
 * explainCompiled prints it: a change to the generator shows in review as a change to
 * __snapshots__/compile.snapshots.test.ts.snap. Update with `npx jest test/compile.snapshots.test.ts -u`
 * once the new code is what was meant (the property tests say whether it still answers right).
 */

function home() {}
function about() {}
function team() {}
function contact() {}
function byId() {}
function byName() {}
function files() {}
function index() {}
function stats() {}
function isAdmin() {
  return true;
}

test("a static-only tree: static-path switches, and walks that answer the same paths", () => {
  const tree = alt(
    route("GET /", home),
    route("GET /about", about),
    route("GET /about/team", team),
    route("POST /contact", contact),
  );
  expect(explainCompiled(tree)).toMatchSnapshot();
});

test("typed segments falling through: GET /users/id:Int, then /users/name:Text", () => {
  const tree = alt(route("GET /users/id:Int", byId), route("GET /users/name:Text", byName));
  expect(explainCompiled(tree)).toMatchSnapshot();
});

test("a match prefix with a rest, beside a static route below it", () => {
  const tree = alt(route("GET /static/index.html", index), match("/static", files), route("GET /n/n:Word", byId));
  expect(explainCompiled(tree)).toMatchSnapshot();
});

test("a guard: the routes it lets through are a program of their own, with records kept whole", () => {
  const tree = alt(
    match("/admin", guard(isAdmin, alt(route("GET /stats", stats), route("GET /users/id:Int", byId)))),
    route("GET /about", about),
  );
  expect(explainCompiled(tree)).toMatchSnapshot();
});

test("past 256 routes: the table walk and a static-path table, no generated code", () => {
  const tree = alt(
    ...Array.from({ length: 300 }, (_, i) => route(`GET /r${i % 30}/items/id:Int/v${Math.floor(i / 30)}`, byId)),
    route("GET /about", about),
    route("GET /about/team", team),
  );
  // the 300 routes and their states are left out: the point is which path the lookup takes
  const lines = explainCompiled(tree).split("\n");
  const entries = lines.filter((line) => /^ {2}entry |^ {4}(static paths|walk):/.test(line));
  expect([...entries, explainCompiled(tree, "code")].join("\n")).toMatchSnapshot();
});

import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { alt, explainCompiled, guard, Int, match, method, path as literal, pathEnd, pathVar, route } from "../src";
import { chainsOf } from "../src/chains";
import { buildAutomaton } from "../src/dispatch/compile/build/automaton";

/*
 * explainCompiled, the printer of what `compile` builds: its text for small trees, line by line where
 * the line is the point, and the generated code it shows is the code a router runs.
 */

function getUser() {}
function byName() {}
function files() {}

/** The example: an Int route falling through to a Text one, and a prefix with a rest. */
const tree = alt(route("GET /users/id:Int", getUser), route("GET /users/name:Text", byName), match("/files", files));

/** The lines of `text` with their indentation removed. */
const trimmed = (text: string): string[] => text.split("\n").map((line) => line.trim());

describe("explainCompiled", () => {
  const text = explainCompiled(tree);
  const lines = trimmed(text);

  test("lists the routes in first-match order: method, template, handler", () => {
    const at = lines.indexOf("routes, in first-match order:");
    expect(lines.slice(at + 1, at + 4)).toEqual([
      "#0  GET  /users/{id:Int}     handler getUser",
      "#1  GET  /users/{name:Text}  handler byName",
      "#2  *    /files/…            handler files",
    ]);
  });

  test("gives each method's entry and its states: the routes each accepts, its literals, where other segments go", () => {
    expect(lines).toContain("program dispatch and find");
    expect(lines).toContain("entry GET: #0 #1 #2");
    expect(lines).toContain('walk: generated code ("GET walk" below)');
    expect(lines).toContain('static paths: generated switch ("GET static paths" below)');
    const at = lines.indexOf("entry GET: #0 #1 #2");
    expect(lines.slice(at + 3, at + 14)).toEqual([
      "states from s0:",
      "s0  depth 0  onward: #0",
      'literals (table of 4 slots): "files" → s1, "users" → s2',
      "other segment → none",
      // /files: the prefix route matches with or without a rest
      "s1  depth 1  end: #2  rest: #2  onward: none",
      "other segment → none",
      // after /users: the Int route and the Text route want one more segment; Int decides
      "s2  depth 1  onward: #0",
      "other segment → by parsers Int: {} → s3, {Int} → s4",
      // a segment Int rejects: only the Text route; one it accepts: both, the Int route first
      "s3  depth 2  end: #1  onward: none",
      "other segment → none",
      "s4  depth 2  end: #0 #1  onward: none",
    ]);
    expect(lines).toContain("entry * (any other method): #2");
  });

  test("shows the generated code the router runs", () => {
    expect(lines).toContain("generated code:");
    for (const name of ["GET walk", "GET static paths", "* walk", "* static paths", "find front"])
      expect(lines).toContain(`// ${name}`);
    // the walk shown is the walk built (its body, indentation aside)
    const walk = buildAutomaton(chainsOf(tree, false)).entryFor("GET").walk;
    const shown = trimmed(String(walk)).slice(1, -1);
    expect(shown.length).toBeGreaterThan(10);
    const from = lines.indexOf(shown[0]!);
    expect(from).toBeGreaterThan(0);
    expect(lines.slice(from, from + shown.length)).toEqual(shown);
    // where the Int route is chosen, the code makes its vars from the value read in place
    expect(text).toMatch(/w\.chosen = 0; return \{ handler: H\d, vars: F\d\(v1_0\), rest: N \}/);
    expect(text).toMatch(/w\.chosen = 1; return \{ handler: H\d, vars: F\d\(p\.slice\(s1, e1\)\), rest: N \}/);
  });

  test("only one half when asked", () => {
    const automaton = explainCompiled(tree, "automaton");
    const code = explainCompiled(tree, "code");
    expect(automaton).toContain("s4  depth 2  end: #0 #1");
    expect(automaton).not.toContain("generated code:");
    expect(code).toContain("// GET walk");
    expect(code).not.toContain("states from");
  });

  test("a guard: the dispatch program, the program of what the guard lets through, and find's", () => {
    const admin = guard(
      function isAdmin() {
        return true;
      },
      alt(route("/stats", files), pathVar("n", Int, pathEnd(getUser))),
    );
    const guarded = trimmed(explainCompiled(alt(match("/admin", admin), route("GET /", byName)), "automaton"));
    expect(guarded).toContain("program dispatch");
    expect(guarded).toContain("#0  *    /admin/…  guard isAdmin");
    expect(guarded).toContain("program dispatch / guard 0 (what the guard lets through, from its segment on)");
    expect(guarded).toContain("#1  *  /{n:Int}  handler getUser");
    expect(guarded).toContain("program find");
    expect(guarded).toContain("#1  *    /admin/{n:Int}  handler getUser");
  });

  test("past 256 routes: no generated code, the table walk and a static-path table", () => {
    const many = alt(
      ...Array.from({ length: 257 }, (_, i) => route(`GET /r${i}/id:Int`, getUser)),
      route("GET /about", byName),
    );
    const big = trimmed(explainCompiled(many));
    expect(big).toContain("walk: table walk (more than 256 routes)");
    expect(big).toContain('static paths: table: "/about" → #257');
    expect(big).toContain("generated code: none (the tables answer)");
  });

  test("where code generation is forbidden, it says the tables answer", () => {
    const script = `
      const sy = require(${JSON.stringify(path.resolve(__dirname, "../dist/cjs/src/index.js"))});
      const tree = sy.alt(sy.route("GET /users/id:Int", () => 1), sy.route("GET /users/name:Text", () => 2));
      process.stdout.write(sy.explainCompiled(tree));
    `;
    const forbidden = execFileSync(process.execPath, ["--disallow-code-generation-from-strings", "-e", script], {
      encoding: "utf8",
    });
    expect(forbidden).toContain("walk: table walk");
    expect(forbidden).toContain("static paths: none");
    expect(forbidden).toContain("generated code: none (the tables answer)");
    expect(forbidden).toContain("other segment → by parsers Int: {} → s2, {Int} → s3");
  });

  test("literals are written as JSON strings", () => {
    const hostile = explainCompiled(
      alt(method("GET", literal('/"x"', pathEnd(files))), method("GET", literal("/a\\b", pathEnd(files)))),
      "automaton",
    );
    expect(hostile).toContain('"\\"x\\"" → s');
    expect(hostile).toContain('"a\\\\b" → s');
  });
});

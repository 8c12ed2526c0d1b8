import { type Diagnostic, expectClean, expectMarkedErrors, typecheck } from "../helpers/typecheck";

/*
 * Decorators checked by the compiler, under TypeScript's legacy decorators and under TC39 standard
 * decorators alike:
 * - a malformed literal in @Route, @Match, @Handle or Controller(…) is the very type error route()'s
 *   literal gives (a parameter type that says what is wrong);
 * - a @Handle method's request type is checked against its pattern and its Controller(prefix): a label
 *   the route does not capture, a type the pattern does not give, a parameter that is not the request;
 * - what must compile does (non-literal patterns are left to startup).
 * Each line of bad.ts marked `// expect: …` must fail on that line with a diagnostic containing the
 * text; no other line may fail.
 */

const KNOWN = "Bool, Day, Double, Int, Int64, Integer, Text, UUID, Word";
const patternError = (pattern: string, problem: string) =>
  `Argument of type '${JSON.stringify(pattern)}' is not assignable to parameter of type '"invalid route pattern: ${problem}"'.`;

const HEADER = `import type { RoutedRequest } from "switchyard-router";
import { Controller, Handle, Match, Route } from "switchyard-router/decorators";
`;

const BAD = `${HEADER}
class A1 {
  @Route("GET /users/id:Intt") // expect: ${patternError("GET /users/id:Intt", `unknown path type 'Intt' (known: ${KNOWN})`)}
  m() {}
}
@Match("/api/v:Version") // expect: ${patternError("/api/v:Version", `unknown path type 'Version' (known: ${KNOWN})`)}
class A2 {
  @Route("GET /")
  m() {}
}
class A3 {
  @Route("get /users") // expect: ${patternError("get /users", "the method 'get' is not upper-case (did you mean 'GET'?)")}
  m() {}
}
class A4 {
  @Handle("GET /id:Intt") // expect: ${patternError("GET /id:Intt", `unknown path type 'Intt' (known: ${KNOWN})`)}
  m() {}
}
class A5 extends Controller("/orgs/org:Nope") {} // expect: ${patternError("/orgs/org:Nope", `unknown path type 'Nope' (known: ${KNOWN})`)}

class Users extends Controller("/orgs/org:Text/users") {
  @Handle("GET /id:Int") // expect: the method reads req.vars.idd, but 'GET /id:Int' under Controller('/orgs/org:Text/users') captures no 'idd'
  typo(req: RoutedRequest<{ idd: number }>) {
    return req.vars.idd;
  }
  @Handle("GET /all") // expect: the method reads req.vars.id, but 'GET /all' under Controller('/orgs/org:Text/users') captures no 'id'
  missing(req: RoutedRequest<{ id: number }>) {
    return req.vars.id;
  }
  @Handle("GET /id:Int") // expect: req.vars.id is declared as a type that 'id:Int' does not give
  wrongType(req: RoutedRequest<{ id: string }>) {
    return req.vars.id;
  }
  @Handle("GET /id:Int") // expect: req.vars.org is declared as a type that 'org:Text' does not give
  wrongPrefixType(req: RoutedRequest<{ org: number; id: number }>) {
    return req.vars.org;
  }
  @Handle("GET /id:Int") // expect: @Handle: the method's parameter must be the routed request
  notTheRequest(id: number) {
    return id;
  }
  @Handle("GET /x/org:Int") // expect: invalid route pattern: the label 'org' is used twice
  twice(req: RoutedRequest<{ org: number }>) {
    return req.vars.org;
  }
  @Handle("GET /id:Int") // expect: 'HandleMethod'
  notAResult(_req: RoutedRequest<{ id: number }>): symbol {
    return Symbol();
  }
}

@Match("/teams/team:Text")
class Teams {
  // a @Match prefix is invisible to method decorators: reading it is an error (extend Controller(…))
  @Handle("GET /id:Int") // expect: the method reads req.vars.team, but 'GET /id:Int' captures no 'team'
  byId(req: RoutedRequest<{ team: string; id: number }>) {
    return req.vars.team;
  }
}
void [A1, A2, A3, A4, A5, Users, Teams];
`;

const GOOD = `${HEADER}
const dynamic: string = "GET /x:Nope"; // not a literal: left to the startup check

class Base {
  @Route("GET /ping")
  ping() {
    return "pong";
  }
}

export class Users extends Controller("/orgs/org:Text/users", Base) {
  @Handle("GET /id:Int")
  byId(req: RoutedRequest<{ org: string; id: number }>) {
    return { org: req.vars.org, id: req.vars.id };
  }
  @Handle("GET /name:Text")
  byName(req: RoutedRequest<{ name: string }>) { // the prefix's variables need not be read
    return req.vars.name;
  }
  @Handle("GET /count")
  count() { // no parameter at all
    return 3;
  }
  @Handle("POST /")
  async create(req: RoutedRequest) { // the request without named variables
    return req.json();
  }
  @Handle("GET /w/id:Int")
  wider(req: RoutedRequest<{ id: number | string }>) { // a wider declared type takes what the pattern gives
    return req.vars.id;
  }
  @Handle(dynamic)
  loose(req: RoutedRequest<{ x: number }>) {
    return req.vars.x;
  }
  @Route("GET /legacy")
  legacy() {
    return "ok";
  }
}

@Match("/teams/team:Text")
export class Teams {
  @Handle("GET /id:Int")
  byId(req: RoutedRequest<{ id: number }>) {
    return req.vars.id;
  }
}

export class Loose extends Controller(dynamic) {
  @Handle("GET /id:Int")
  byId(req: RoutedRequest<{ anything: number }>) { // the prefix is unknown to the compiler: nothing checked
    return req.vars.anything;
  }
}

// the checked-at-compile-time pattern inside a method's body is the one its annotation says
class Typed extends Controller("/t") {
  @Handle("GET /id:Int")
  byId(req: RoutedRequest<{ id: number }>) {
    // @ts-expect-error the annotation has no "idd"
    return req.vars.idd;
  }
}
void Typed;
`;

/** The @PathVar style, under legacy decorators only (standard decorators have no parameter decorators). */
const GOOD_LEGACY = `import { Match, PathVar, Route } from "switchyard-router/decorators";
@Match("/users")
export class Users {
  @Route("GET /id:Int")
  byId(@PathVar("id") id: number) {
    return { id };
  }
}
`;

function check(diagnostics: readonly Diagnostic[]): void {
  expectMarkedErrors(diagnostics, BAD, 13);
  expectClean(diagnostics);
}

test("under legacy decorators (experimentalDecorators): each bad line fails as marked, the good files compile", () => {
  check(typecheck({ "bad.ts": BAD, "good.ts": GOOD, "good-legacy.ts": GOOD_LEGACY }));
}, 60_000);

test("under TC39 standard decorators: the same", () => {
  check(typecheck({ "bad.ts": BAD, "good.ts": GOOD }, { experimentalDecorators: false, emitDecoratorMetadata: false }));
}, 60_000);

test("a pattern error in a decorator reads exactly as route()'s", () => {
  const diagnostics = typecheck({
    "same.ts": `import { route } from "switchyard-router";
import { Route } from "switchyard-router/decorators";
route("GET /users/id:Intt", () => "x");
class C {
  @Route("GET /users/id:Intt")
  m() {}
}
void C;
`,
  });
  expect(diagnostics.map((d) => [d.line, d.code, d.text])).toEqual([
    [3, "TS2345", patternError("GET /users/id:Intt", `unknown path type 'Intt' (known: ${KNOWN})`)],
    [5, "TS2345", patternError("GET /users/id:Intt", `unknown path type 'Intt' (known: ${KNOWN})`)],
  ]);
}, 60_000);

test("parameter decorators under standard decorators: tsc refuses them itself (TS1206), before any signature is read", () => {
  // tsc never checks a parameter decorator's call signature there, so no message type of ours can
  // appear: the runtime error (test/decorators-standard.test.ts) names the setting and the checked style
  const diagnostics = typecheck(
    { "params.ts": GOOD_LEGACY },
    { experimentalDecorators: false, emitDecoratorMetadata: false },
  );
  expect(diagnostics.filter((d) => d.code !== "TS6133").map((d) => [d.line, d.code, d.text])).toEqual([
    [5, "TS1206", "Decorators are not valid here."],
  ]);
}, 60_000);

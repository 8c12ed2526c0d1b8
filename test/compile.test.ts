import {
  alt,
  compile,
  guard,
  type Handler,
  inject,
  Int,
  interpreter,
  method,
  NoParse,
  path,
  pathEnd,
  pathVar,
  type PathParser,
  type RouteNode,
  routeMismatch,
  Text,
  Word,
  Bool,
  Double,
  UUID,
  Day,
  Int64,
  Integer,
} from "../src";
import { runDispatcherSpec } from "./shared/dispatcher-spec";

// the spec every dispatcher must pass (test/shared/dispatcher-spec.ts), as the interpreter does
runDispatcherSpec("compiled", (tree) => compile(tree).dispatch);
import { adapterInput } from "../src/input";
import { RequestContext } from "../src/request";
import { inheritance, INHERITS_NOTHING } from "./helpers/vars";

/*
 * The cases that needed care while building the compiler. Each one is checked against the
 * interpreter as well as against the answer written here.
 */

const quiet = { onError: () => {} };

/** The reply body of both dispatchers, after checking they agree (status, headers and body). */
async function answer(tree: RouteNode, url: string, verb = "GET"): Promise<string> {
  const request = { method: verb, url };
  const expected = await inject(tree, request, { ...quiet, dispatcher: interpreter });
  const actual = await inject(tree, request, quiet);
  expect(actual).toEqual(expected);
  return actual.status === 200 ? actual.body : String(actual.status);
}

const says =
  (word: string): Handler =>
  () =>
    word;
const echo: Handler = (request) => ({ vars: request.vars, rest: request.rest });

describe("first match in declaration order", () => {
  test("a typed variable that accepts a literal wins when declared first, the literal when it is", async () => {
    const varFirst = alt(
      path("/user", pathVar("id", Int, pathEnd(says("var")))),
      path("/user/007", pathEnd(says("static"))),
    );
    const staticFirst = alt(
      path("/user/007", pathEnd(says("static"))),
      path("/user", pathVar("id", Int, pathEnd(says("var")))),
    );
    expect(await answer(varFirst, "/user/007")).toBe("var");
    expect(await answer(staticFirst, "/user/007")).toBe("static");
    expect(await answer(staticFirst, "/user/7")).toBe("var");
  });

  test("a fully static path shadowed by an earlier variable route gets the variable's value", async () => {
    const tree = alt(path("/a", pathVar("x", Text, pathEnd(echo))), path("/a/b", pathEnd(says("static"))));
    expect(JSON.parse(await answer(tree, "/a/b"))).toEqual({ vars: { x: "b" }, rest: [] });
  });

  test("a typed segment that does not parse falls through to the next route, at any depth", async () => {
    const tree = alt(
      path("/u", pathVar("id", Word, path("/posts", pathVar("p", Word, pathEnd(says("ints")))))),
      path("/u", pathVar("name", Text, path("/posts", pathVar("slug", Text, pathEnd(says("texts")))))),
    );
    expect(await answer(tree, "/u/42/posts/7")).toBe("ints");
    expect(await answer(tree, "/u/42/posts/x")).toBe("texts");
    expect(await answer(tree, "/u/-1/posts/7")).toBe("texts");
  });

  test("a prefix route (no pathEnd) declared first beats a longer exact one", async () => {
    const tree = alt(path("/static", echo), path("/static/a", pathEnd(says("exact"))));
    expect(JSON.parse(await answer(tree, "/static/a"))).toEqual({ vars: {}, rest: ["a"] });
    expect(JSON.parse(await answer(tree, "/static"))).toEqual({ vars: {}, rest: [] });
  });
});

describe("routeMismatch() resumes where the interpreter would", () => {
  test("the next candidate in order, whichever branch of the automaton it is on", async () => {
    const tree = alt(
      path(
        "/a",
        pathVar(
          "x",
          Text,
          pathEnd(() => routeMismatch()),
        ),
      ),
      path(
        "/a/b",
        pathEnd(() => routeMismatch()),
      ),
      path("/a", echo),
      path("/a/b", pathEnd(says("late"))),
    );
    expect(JSON.parse(await answer(tree, "/a/b"))).toEqual({ vars: {}, rest: ["b"] });
  });

  test("async mismatches too, and a sync answer after them", async () => {
    const tree = alt(
      path("/a", async () => routeMismatch()),
      path("/a", () => Promise.resolve(routeMismatch())),
      path("/a", says("third")),
    );
    expect(await answer(tree, "/a")).toBe("third");
  });

  test("a handler that returns a thenable that is not a Promise is awaited, as by the interpreter", async () => {
    const thenable: Handler = () => ({ then: (resolve: (v: unknown) => void) => resolve(routeMismatch()) }) as never;
    expect(await answer(alt(path("/a", thenable), path("/a", says("next"))), "/a")).toBe("next");
  });
});

describe("guards", () => {
  test("run whenever the tests above them pass, even when nothing below could match", async () => {
    const seen: string[] = [];
    const tree = alt(
      guard(
        () => {
          seen.push("guard");
          return true;
        },
        path("/x", pathEnd(says("x"))),
      ),
      path("/y", says("y")),
    );
    expect(await answer(tree, "/y")).toBe("y");
    expect(seen).toEqual(["guard", "guard"]);
  });

  test("a throwing guard is a 500 even when the path below it would not match", async () => {
    const tree = alt(
      guard(
        () => {
          throw new Error("no");
        },
        path("/x", says("x")),
      ),
      path("/y", says("y")),
    );
    expect(await answer(tree, "/y")).toBe("500");
  });

  test("a passing async guard whose routes do not answer goes on with the next alternative", async () => {
    const tree = alt(
      guard(async () => true, pathEnd(says("root"))),
      says("fallback"),
    );
    expect(await answer(tree, "/a")).toBe("fallback");
    expect(await answer(tree, "/")).toBe("root");
  });

  test("see the variables captured so far and the rest; routes below continue from there", async () => {
    const tree = path(
      "/t",
      pathVar(
        "id",
        Int,
        guard(
          (request) => request.vars.id > 0 && request.rest.length === 2,
          path("/ok", pathVar("n", Bool, pathEnd(echo))),
        ),
      ),
    );
    expect(JSON.parse(await answer(tree, "/t/3/ok/TRUE"))).toEqual({ vars: { id: 3, n: true }, rest: [] });
    expect(await answer(tree, "/t/0/ok/true")).toBe("404");
  });

  test("a guard mounted under two prefixes is compiled once and works under both", async () => {
    const shared = guard(() => true, pathVar("n", Int, pathEnd(echo)));
    const tree = alt(path("/a", shared), path("/b/c", shared));
    expect(JSON.parse(await answer(tree, "/b/c/5"))).toEqual({ vars: { n: 5 }, rest: [] });
    expect(JSON.parse(await answer(tree, "/a/5"))).toEqual({ vars: { n: 5 }, rest: [] });
  });
});

describe("method anywhere in a chain", () => {
  test("after path tests, twice the same, two different (never), missing (every method)", async () => {
    const tree = alt(
      path("/a", method("POST", pathEnd(says("post a")))),
      method("GET", path("/a", method("GET", pathEnd(says("get a"))))),
      method("GET", method("PUT", says("never"))),
      path("/a", pathEnd(says("any"))),
    );
    expect(await answer(tree, "/a", "POST")).toBe("post a");
    expect(await answer(tree, "/a", "GET")).toBe("get a");
    expect(await answer(tree, "/a", "PUT")).toBe("any");
    expect(await answer(tree, "/a", "get")).toBe("any");
    expect(await answer(tree, "/b", "PUT")).toBe("404");
  });
});

describe("path details", () => {
  const tree = alt(
    path("/a", pathEnd(says("a"))),
    path("/A", pathEnd(says("A"))),
    path("/a/b", pathEnd(says("a b"))),
    path("/%41", pathEnd(says("literal %41"))),
    path("/v", pathVar("t", Text, pathEnd(echo))),
    pathEnd(says("root")),
  );

  test.each([
    ["/a", "a"],
    ["/a/", "404"], // trailing slash is an empty segment
    ["/a//b", "404"],
    ["//a", "404"],
    ["/%61", "a"], // decoded before literals are compared
    ["/%41", "A"],
    ["/%2541", "literal %41"],
    ["/a%2Fb", "404"], // an encoded slash never splits
    ["/a/b?x=/y", "a b"],
    ["/", "root"],
    ["", "root"],
    ["http://example.com/a", "a"],
  ])("%s → %s", async (url, expected) => {
    expect(await answer(tree, url)).toBe(expected);
  });

  test.each([
    ["/v/", ""],
    ["/v/a%2Fb", "a/b"],
    ["/v/%zz", "%zz"],
    ["/v/%FF", "\uFFFD"],
    ["/v/a+b", "a+b"],
  ])("Text captures %s as %j", async (url, value) => {
    expect(JSON.parse(await answer(tree, url)).vars.t).toBe(value);
  });

  test("long and many-segment paths: 5,000 segments, a 100,000-character segment, deep literal and typed chains", async () => {
    const deep = Array.from({ length: 300 }, (_, i) => `s${i}`);
    const tree = alt(
      path(`/${deep.join("/")}`, pathVar("n", Int, pathEnd(echo))),
      path("/long", pathVar("text", Text, pathEnd(echo))),
      path("/many", echo),
    );
    const many = Array.from({ length: 5_000 }, (_, i) => (i % 3 === 0 ? "" : `p${i}`));
    const long = "x".repeat(100_000);
    expect(JSON.parse(await answer(tree, `/many/${many.join("/")}`)).rest).toEqual(many);
    expect(JSON.parse(await answer(tree, `/long/${long}`)).vars.text).toBe(long);
    expect(JSON.parse(await answer(tree, `/${deep.join("/")}/42`)).vars.n).toBe(42);
    expect(await answer(tree, `/${deep.join("/")}/x`)).toBe("404");
    expect(await answer(tree, `/${deep.slice(0, -1).join("/")}/42`)).toBe("404");
    const router = compile(tree);
    expect(router.find("GET", `/many/${many.join("/")}`)!.rest).toEqual(many);
    expect(router.find("GET", `/long/${long}?q=1`)!.vars).toEqual({ text: long });
    expect(router.find("GET", `/${deep.join("/")}/7`)!.vars).toEqual({ n: 7 });
  });

  test("pathEnd then path('/') still matches; pathEnd then a segment never does", async () => {
    const after = alt(path("/a", pathEnd(path("/", says("ok")))), path("/b", pathEnd(path("/c", says("never")))));
    expect(await answer(after, "/a")).toBe("ok");
    expect(await answer(after, "/b/c")).toBe("404");
    expect(await answer(after, "/b")).toBe("404");
  });

  test("alt() never matches; an empty tree is a 404 for every request", async () => {
    expect(await answer(alt(), "/")).toBe("404");
    expect(await answer(alt(alt(), says("x")), "/q")).toBe("x");
  });
});

describe("parsers", () => {
  test("more than four different typed parsers at one segment (transitions built on first use)", async () => {
    const tree = alt(
      ...([Int64, Bool, UUID, Day, Double, Word] as PathParser<unknown>[]).map((parser, i) =>
        pathVar(`v${i}`, parser, pathEnd(says(parser.name))),
      ),
      pathVar("rest", Integer, pathEnd(says("Integer"))),
      says("none"),
    );
    for (const [url, expected] of [
      ["/12", "Int64"],
      ["/true", "Bool"],
      ["/2024-01-05", "Day"],
      ["/2.5", "Double"],
      ["/x", "none"],
    ]) {
      expect(await answer(tree, url!)).toBe(expected);
    }
  });

  test("a parser that throws is a mismatch, on request segments and on literals at compile time", async () => {
    const Picky: PathParser<string> = {
      name: "Picky",
      parseUrlPiece: (piece) => {
        if (piece === "bad") throw new Error("bad");
        return piece.startsWith("p") ? piece : NoParse;
      },
      toUrlPiece: String,
    };
    const tree = alt(
      pathVar("p", Picky, pathEnd(says("picky"))),
      path("/bad", pathEnd(says("literal"))),
      says("other"),
    );
    expect(await answer(tree, "/bad")).toBe("literal");
    expect(await answer(tree, "/pa")).toBe("picky");
    expect(await answer(tree, "/zz")).toBe("other");
  });

  test("values are parsed per request (never shared) in an object that inherits nothing, `__proto__` included", async () => {
    const tree = pathVar(
      "__proto__",
      Day,
      pathEnd((request) => ({ inherits: inheritance(request.vars), keys: Object.keys(request.vars) })),
    );
    expect(JSON.parse(await answer(tree, "/2024-02-29"))).toEqual({ inherits: INHERITS_NOTHING, keys: ["__proto__"] });
    const days = new Set<unknown>();
    const collect = compile(
      pathVar(
        "d",
        Day,
        pathEnd(() => ""),
      ),
    );
    for (let i = 0; i < 2; i++) days.add(collect.find("GET", "/2024-01-01")!.vars.d);
    expect(days.size).toBe(2);
  });
});

describe("parsing and static paths", () => {
  test("a segment read by parsers during the walk is not parsed again to bind it; after a mismatch it is, afresh", async () => {
    let calls = 0;
    const Counted: PathParser<{ n: number }> = {
      name: "Counted",
      parseUrlPiece: (piece) => (/^[0-9]+$/.test(piece) ? { n: ++calls } : NoParse),
      toUrlPiece: (value) => String(value.n),
    };
    const seen: unknown[] = [];
    const keep: Handler = (request) => {
      seen.push((request.vars as { x: unknown }).x);
      return seen.length % 2 === 1 ? routeMismatch() : "second";
    };
    // two parsers compete at the segment, so the walk decides it by parsing
    const tree = alt(
      pathVar("x", Counted, pathEnd(keep)),
      pathVar("x", Counted, pathEnd(keep)),
      pathVar("x", Int, pathEnd(says("int"))),
    );
    expect(compile(tree).find("GET", "/7")!.vars).toEqual({ x: { n: 1 } });
    expect(calls).toBe(1);
    expect(await answer(tree, "/7")).toBe("second");
    // the compiled dispatcher's two handler calls (after the interpreter's two) got values of their own
    expect(seen).toHaveLength(4);
    expect(seen[2]).not.toBe(seen[3]);
  });

  test("whole static paths: many of them, a root route, empty and one-character paths, a trailing slash", async () => {
    const names = Array.from({ length: 60 }, (_, i) => `r${i % 7}${"x".repeat(i % 5)}${i}`);
    const tree = alt(
      ...names.map((name) => path(`/${name}/end`, pathEnd(says(name)))),
      path("/a", pathEnd(says("a"))),
      pathEnd(says("root")),
      path("/a", pathVar("rest", Text, pathEnd(says("var")))),
    );
    for (const name of names) expect(await answer(tree, `/${name}/end`)).toBe(name);
    expect(await answer(tree, "/r0x/end")).toBe("404");
    expect(await answer(tree, "/")).toBe("root");
    expect(await answer(tree, "")).toBe("root");
    expect(await answer(tree, "/a")).toBe("a");
    expect(await answer(tree, "/a/")).toBe("var");
    expect(await answer(tree, "/b")).toBe("404");
    expect(compile(tree).find("GET", "")!.vars).toEqual({});
  });

  test("a literal with `?` or `%` is never a static path: the query is cut first, escapes are decoded", async () => {
    const tree = alt(
      path("/a?b", pathEnd(says("question"))),
      path("/a%b", pathEnd(says("percent"))),
      path("/a", pathEnd(says("a"))),
    );
    expect(await answer(tree, "/a?b")).toBe("a");
    expect(await answer(tree, "/a%3Fb")).toBe("question");
    expect(await answer(tree, "/a%25b")).toBe("percent");
    const router = compile(tree);
    expect(router.find("GET", "/a?b")!.handler).toBe(router.find("GET", "/a")!.handler);
    expect(router.find("GET", "http://example.com/a")!.handler).toBe(router.find("GET", "/a")!.handler);
  });
});

describe("dispatch stays synchronous for synchronous handlers", () => {
  test("no promise when no guard or handler returns one", () => {
    const { dispatch } = compile(
      alt(
        path("/a", () => routeMismatch()),
        path("/a", pathEnd(says("sync"))),
      ),
    );
    const outcome = dispatch(new RequestContext(adapterInput({ method: "GET", url: "/a" })));
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toMatchObject({ status: 200, body: "sync" });
    expect(dispatch(new RequestContext(adapterInput({ method: "GET", url: "/nope" })))).toBeNull();
  });
});

describe("find", () => {
  const list: Handler = () => "list";
  const show: Handler = () => "show";
  const files: Handler = () => "files";
  const hidden: Handler = () => "hidden";
  const router = compile(
    alt(
      method("GET", path("/users", pathEnd(list))),
      method("GET", path("/users", pathVar("id", Int, pathEnd(show)))),
      path("/files", files),
      guard(() => false, path("/secret", pathEnd(hidden))),
    ),
  );

  test("returns the handler given, the parsed variables and the rest", () => {
    expect(router.find("GET", "/users")).toEqual({ handler: list, vars: {}, rest: [] });
    const found = router.find("GET", "/users/42?x=1")!;
    expect(found.handler).toBe(show);
    expect(found.vars).toEqual({ id: 42 });
    expect(inheritance(found.vars)).toEqual(INHERITS_NOTHING);
    expect(router.find("DELETE", "/files/a/b%2Fc/")).toEqual({ handler: files, vars: {}, rest: ["a", "b/c", ""] });
    expect(router.find("GET", "/files/x/y")!.rest).toEqual(["x", "y"]);
  });

  test("null when nothing matches: wrong method, a typed segment that does not parse, extra segments", () => {
    expect(router.find("POST", "/users")).toBeNull();
    expect(router.find("GET", "/users/abc")).toBeNull();
    expect(router.find("GET", "/users/1/2")).toBeNull();
  });

  test("guards are taken as passing and handlers are not run", () => {
    expect(router.find("GET", "/secret")!.handler).toBe(hidden);
  });
});

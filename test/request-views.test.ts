import {
  alt,
  headersOf,
  guard,
  inject,
  interpreter,
  route,
  routeMismatch,
  type DispatcherFactory,
  type RoutedRequest,
} from "../src";

// Every guard and handler tried for one request sees its own variables and rest, even though the
// first of them is handed the request context itself (one object less per request).
const dispatchers: [string, DispatcherFactory | undefined][] = [
  ["compiled (default)", undefined],
  ["interpreter", interpreter],
];

describe.each(dispatchers)("request views, %s", (_name, dispatcher) => {
  test("a handler that passed keeps its own vars and rest after a later handler answers", async () => {
    const seen: RoutedRequest[] = [];
    const tree = alt(
      route("/a/x:Int/b", (req) => {
        seen.push(req as RoutedRequest);
        return routeMismatch();
      }),
      guard(
        (req) => {
          seen.push(req as RoutedRequest);
          return true;
        },
        route("/a/y:Text/b", (req) => {
          seen.push(req as RoutedRequest);
          return { y: req.vars.y };
        }),
      ),
    );
    const res = await inject(tree, { url: "/a/7/b?q=1" }, { dispatcher });
    expect(JSON.parse(res.body)).toEqual({ y: "7" });
    expect(seen).toHaveLength(3);
    expect({ ...seen[0]!.vars }).toEqual({ x: 7 });
    expect({ ...seen[1]!.vars }).toEqual({});
    expect({ ...seen[2]!.vars }).toEqual({ y: "7" });
    expect(new Set(seen).size).toBe(3);
    for (const req of seen) {
      expect(req.segments).toEqual(["a", "7", "b"]);
      expect(req.query.get("q")).toBe("1");
      expect(req.url).toBe("/a/7/b?q=1");
    }
    expect(seen[0]!.rest).toEqual([]);
  });
});

describe("a header record changed by a framework's middleware", () => {
  test("a value replaced by a number or an object reads as its text, not a 500", () => {
    const headers = headersOf(
      { "content-length": 12 as never, "x-parsed": { a: 1 } as never, "x-list": ["a", "b"] },
      true,
    );
    expect(headers.get("content-length")).toBe("12");
    expect(headers.get("x-parsed")).toBe("[object Object]");
    expect(headers.get("x-list")).toBe("a, b");
  });
});

import { typecheck } from "../helpers/typecheck";

/*
 * The method and path template a `route` records for the typed client, from its pattern as written:
 * spaces and tabs around and between, a qualified method, no method, a trailing slash (or two), the root. Each line
 * asserts the exact pair.
 */

const CASES = `import { route, type ServedRoutes } from "switchyard-router";
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function exact<T extends true>(): T | undefined { return undefined; }
const h = () => 1;
type Served<T> = ServedRoutes<T> extends infer R extends { method: string; path: string } ? [R["method"], R["path"]] : never;
const a = route("GET /a", h);
const b = route(" GET\\t/b/ ", h);
const c = route("HTTP.GET /c", h);
const d = route("/d/id:Int", h);
const e = route("PROPFIND  d/e", h);
const f = route("  /f  ", h);
const g = route("GET /", h);
const i = route("GET /g//", h);
exact<Equal<Served<typeof a>, ["GET", "/a"]>>();
exact<Equal<Served<typeof b>, ["GET", "/b"]>>();
exact<Equal<Served<typeof c>, ["GET", "/c"]>>();
exact<Equal<Served<typeof d>, ["*", "/d/id:Int"]>>();
exact<Equal<Served<typeof e>, ["PROPFIND", "/d/e"]>>();
exact<Equal<Served<typeof f>, ["*", "/f"]>>();
exact<Equal<Served<typeof g>, ["GET", "/"]>>();
exact<Equal<Served<typeof i>, ["GET", "/g"]>>();
`;

test("a route records its pattern's method and path template as the pattern grammar reads them", () => {
  const diagnostics = typecheck({ "cases.ts": CASES });
  expect(diagnostics.map((d) => `${d.line}: ${d.text}`)).toEqual([]);
}, 120_000);

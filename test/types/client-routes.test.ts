import { type Diagnostic, expectClean, expectMarkedErrors, typecheck } from "../helpers/typecheck";

/*
 * client<typeof app>(), checked by the compiler: a call names a method and a path template the app's
 * type serves (prefixes of enclosing `match`es joined, routes under `guard`/`use` kept), its variables
 * are typed by the pattern, its body by what `described` declares, and it resolves to what the handler
 * returns as JSON carries it (or what `described` declares for a hand-made reply). Each line of bad.ts
 * marked `// expect: …` must fail there with a diagnostic containing the text; good.ts must compile.
 */

const APP = `import { alt, cors, described, guard, json, match, method, path, pathEnd, pathVar, route, routeMismatch, use, Int, type RoutedRequest, Day } from "switchyard-router";
import { z } from "zod";

export interface User { id: number; name: string; born: Date; tags: bigint[]; secret?: () => void }
const user = (id: number): User => ({ id, name: "ada", born: new Date(), tags: [] });
const NewUser = z.object({ name: z.string() });
const Made = z.object({ id: z.number() });

export const app = alt(
  route("GET /users/id:Int", (req) => user(req.vars.id)),
  route("POST /users", described(async (req: RoutedRequest) => json({ id: ((await req.json()) as unknown[]).length }, { status: 201 }), {
    inputs: [{ in: "body", schema: NewUser }],
    responses: { 201: { schema: Made } },
  })),
  route("GET /hello", () => "hello"),
  route("DELETE /users/id:Int", () => undefined),
  route("GET /items/id:Int", (req) => (req.vars.id > 0 ? { n: req.vars.id } : routeMismatch())),
  route("GET /items/id:Int", () => ({ fallback: true })),
  route("GET /raw", () => json({ a: 1 })),
  match("/orgs/org:Text", alt(
    route("GET /on/on:Day", (req) => ({ org: req.vars.org, on: req.vars.on })),
    guard(() => true, route("PUT /teams/team:Text", () => ({ ok: true }))),
    use(async (_req, next) => next(), match("GET /files", () => "file")),
    match("POST /admin", route("GET /x", () => 1)),
  )),
  route("/any", () => "any"),
  route("PROPFIND /dav", () => "dav"),
  method("GET", path("/reports", pathVar("on", Day, pathEnd(() => 1)))),
  pathVar("n", Int, route("/under", () => 0)),
  cors({ origin: "*" }, route("GET /cors/id:Int", (req) => ({ c: req.vars.id }))),
  match("/v2", alt(route("GET /ping", () => 1), route("/", () => "root"), match("/s", () => "s"), match("/deep", route("GET /x", () => 2)))),
  match("/", route("GET /top", () => true)),
);
`;

const BAD = `import { client } from "switchyard-router";
import { app } from "./app.js";
const api = client<typeof app>();
await api["/users/id:Int"].get({ vars: { id: "7" } }); // expect: Type 'string' is not assignable to type 'number'.
await api["/users/id:Int"].get({ vars: {} }); // expect: Property 'id' is missing
await api["/users/id:Int"].get(); // expect: Expected 1 arguments, but got 0.
await api["/users/id:Int"].get({ vars: { id: 7, idd: 8 } }); // expect: 'idd' does not exist
await api["/users/:id"].get({ vars: { id: 7 } }); // expect: Property '/users/:id' does not exist
await api["/users/id:Int"].put({ vars: { id: 7 } }); // expect: Property 'put' does not exist
await api["/users"].get(); // expect: Property 'get' does not exist
await api["/users"].post({ body: { name: 7 } }); // expect: Type 'number' is not assignable to type 'string'.
await api["/on/on:Day"].get({ vars: { on: null! } }); // expect: Property '/on/on:Day' does not exist
await api["/orgs/org:Text/on/on:Day"].get({ vars: { on: "2024-01-02", org: "a" } }); // expect: Type 'string' is not assignable to type 'Day'.
await api["/orgs/org:Text/on/on:Day"].get({ vars: { on: null! } }); // expect: Property 'org' is missing
await api["/orgs/org:Text/admin/x"].get(); // expect: Property '/orgs/org:Text/admin/x' does not exist
export const n: number = await api["/hello"].get(); // expect: Type 'string' is not assignable to type 'number'.
export const born: Date = (await api["/users/id:Int"].get({ vars: { id: 7 } })).born; // expect: Type 'string' is not assignable to type 'Date'.
(await api["/users/id:Int"].get({ vars: { id: 7 } })).secret?.(); // expect: Type 'never' has no call signatures.
export const gone: string = await api["/users/id:Int"].delete({ vars: { id: 7 } }); // expect: Type 'undefined' is not assignable to type 'string'.
export const made: string = (await api["/users"].post({ body: { name: "x" } })).id; // expect: Type 'number' is not assignable to type 'string'.
export const item: { n: number } = await api["/items/id:Int"].get({ vars: { id: 1 } }); // expect: Property 'n' is missing
await api["/reports/on:Day"].get({ vars: { on: null! } }); // expect: Property '/reports/on:Day' does not exist
await api["/n:Int/under"].get({ vars: { n: 1 } }); // expect: Property '/n:Int/under' does not exist
await api["/hello"].propfind(); // expect: Property 'propfind' does not exist
await api["/cors/id:Int"].get({ vars: { id: "1" } }); // expect: Type 'string' is not assignable to type 'number'.
await api["/v2/"].get(); // expect: Property '/v2/' does not exist
await api["//top"].get(); // expect: Property '//top' does not exist
`;

const GOOD = `import { alt, client, testFetch, Day, type Route } from "switchyard-router";
import { app } from "./app.js";
const api = client<typeof app>({ fetch: testFetch(app), baseUrl: "http://localhost" });
export const user: { id: number; name: string; born: string; tags: number[] } = await api["/users/id:Int"].get({ vars: { id: 7 } });
export const made: { id: number } = await api["/users"].post({ body: { name: "x" } });
export const text: string = await api["/hello"].get();
export const nothing: undefined = await api["/users/id:Int"].delete({ vars: { id: 7 } });
export const item: { n: number } | { fallback: boolean } = await api["/items/id:Int"].get({ vars: { id: 1 } });
export const raw: unknown = await api["/raw"].get();
export const on: { org: string; on: string } = await api["/orgs/org:Text/on/on:Day"].get({ vars: { org: "a", on: Day.of(2024, 1, 2) } });
export const team: { ok: boolean } = await api["/orgs/org:Text/teams/team:Text"].put({ vars: { org: "a", team: "b" }, headers: { "x-key": "k" } });
export const file: string = await api["/orgs/org:Text/files/*"].get({ vars: { org: "a" }, rest: ["x", "y"] });
export const anyMethod: string[] = [await api["/any"].get(), await api["/any"].post(), await api["/any"].options()];
export const dav: string = await api["/dav"].propfind({ query: { depth: 1 } });
// cors passes its routes on, as use does
export const corsed: { c: number } = await api["/cors/id:Int"].get({ vars: { id: 1 } });
// under a plain prefix: joined paths, the prefix itself for its "/" route, a rest after it
export const v2: [number, string, string, boolean] = [await api["/v2/ping"].get(), await api["/v2"].delete(), await api["/v2/s/*"].get({ rest: ["x"] }), await api["/top"].get()];
export const deep: number = await api["/v2/deep/x"].get();
// a tree serving other routes is still a Route, and (a node of the same kind) assignable to the first tree's type
export const tree: Route = app;
export let same: typeof app = app;
same = alt((await import("./other.js")).other, (await import("./other.js")).other);
`;

const OTHER = `import { route } from "switchyard-router";
export const other = route("GET /other", () => 1);
`;

let diagnostics: Diagnostic[];
beforeAll(() => {
  diagnostics = typecheck({ "app.ts": APP, "bad.ts": BAD, "good.ts": GOOD, "other.ts": OTHER });
}, 120_000);

test("app.ts and good.ts compile", () => {
  expectClean(diagnostics);
});

test("each marked line of bad.ts fails with its message, and no other", () => {
  expectMarkedErrors(diagnostics, BAD, 24);
});

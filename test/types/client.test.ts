import { type Diagnostic, expectClean, expectMarkedErrors, typecheck } from "../helpers/typecheck";

/*
 * The typed client and urlFor, checked by the compiler: variables typed by the handler's request (and a
 * Controller(prefix)'s), results by what the handler returns as JSON carries it, @PathVar methods
 * called with their own parameters. Each line of bad.ts marked `// expect: …` must fail there with a
 * diagnostic containing the text; good.ts must compile.
 */

const APP = `import { alt, client, match, route, testFetch, urlFor, type RoutedRequest, Day } from "switchyard-router";
import { clientFor, Controller, controllers, File, Handle, Match, PathVar, Route } from "switchyard-router/decorators";
import type { FormFile } from "switchyard-router";

export interface User { id: number; name: string; born: Date; tags: bigint[]; secret?: () => void }
export const byId = (req: RoutedRequest<{ id: number }>): User => ({ id: req.vars.id, name: "ada", born: new Date(), tags: [] });
export const hello = () => "hello";
export const remove = (_req: RoutedRequest<{ id: number }>) => undefined;
export const onDay = (req: RoutedRequest<{ org: string; on: Day }>) => ({ on: req.vars.on.toString() });
export const anyVars = async (req: RoutedRequest) => ({ keys: Object.keys(req.vars).length });
export const app = alt(route("GET /users/id:Int", byId), route("GET /hello", hello), route("DELETE /users/id:Int", remove),
  match("/orgs/org:Text", route("GET /on/on:Day", onDay)), route("GET /any", anyVars));
export const api = client(app, { byId, hello, remove, onDay, anyVars }, { fetch: testFetch(app) });

export class Users extends Controller("/orgs/org:Text/users") {
  @Handle("GET /id:Int")
  byId(req: RoutedRequest<{ id: number }>): User { return { id: req.vars.id, name: "x", born: new Date(), tags: [] }; }
}
@Match("/legacy")
export class Legacy {
  @Route("GET /id:Int")
  async byId(@PathVar("id") id: number) { return { id }; }
  @Route("POST /upload")
  async upload(@File("doc") doc: FormFile) { return { name: doc.name }; }
}
export const tree = controllers([Users, Legacy]);
export const users = clientFor(tree, Users);
export const legacy = clientFor(tree, Legacy);
void urlFor;
`;

const BAD = `import { urlFor, Day } from "switchyard-router";
import { api, app, byId, legacy, tree, users, Users } from "./app.js";
await api.byId({ id: "7" }); // expect: Type 'string' is not assignable to type 'number'.
await api.byId({}); // expect: Property 'id' is missing
await api.onDay({ org: "a", on: "2024-01-02" }); // expect: Type 'string' is not assignable to type 'Day'.
export const n: number = await api.hello(); // expect: Type 'string' is not assignable to type 'number'.
export const born: Date = (await api.byId({ id: 7 })).born; // expect: Type 'string' is not assignable to type 'Date'.
(await api.byId({ id: 7 })).secret?.(); // expect: Type 'never' has no call signatures.
export const gone: string = await api.remove({ id: 7 }); // expect: Type 'undefined' is not assignable to type 'string'.
await users.byId({ org: 1, id: 7 }); // expect: Type 'number' is not assignable to type 'string'.
await users.byId({ org: "acme" }); // expect: Property 'id' is missing
await legacy.byId("7"); // expect: Argument of type 'string' is not assignable to parameter of type 'number'.
await users.nothing(); // expect: Property 'nothing' does not exist
await legacy.upload("text"); // expect: Argument of type 'string' is not assignable to parameter of type 'Blob'.
urlFor(app, byId, { id: "x" }); // expect: Type 'string' is not assignable to type 'number'.
urlFor(tree, Users.prototype.byId, {}); // expect: Property 'id' is missing
void Day;
`;

const GOOD = `import { urlFor, Day, ClientError } from "switchyard-router";
import { api, app, byId, legacy, tree, users, Users } from "./app.js";
export const user: { id: number; name: string; born: string; tags: number[] } = await api.byId({ id: 7 });
export const text: string = await api.hello();
// a handler whose request names no variables: any (or none), and its promise's value
export const keys: { keys: number }[] = [await api.anyVars(), await api.anyVars({ whatever: 1 })];
export const nothing: undefined = await api.remove({ id: 7 });
export const day: { on: string } = await api.onDay({ org: "a", on: Day.of(2024, 1, 2) });
export const u: { id: number; born: string } = await users.byId({ org: "acme", id: 7 });
export const l: { id: number } = await legacy.byId(7);
export const up: { name: string } = await legacy.upload(new Blob(["x"]));
export const path: string = urlFor(app, byId, { id: 7 }) + urlFor(tree, Users.prototype.byId, { org: "a", id: 7 });
try { await api.byId({ id: 1 }); } catch (error) { if (error instanceof ClientError) void [error.status, error.errors]; }
`;

let diagnostics: Diagnostic[];
beforeAll(() => {
  diagnostics = typecheck({ "app.ts": APP, "bad.ts": BAD, "good.ts": GOOD });
}, 60_000);

test("app.ts and good.ts compile", () => {
  expectClean(diagnostics);
});

test("each marked line of bad.ts fails with its message, and no other", () => {
  expectMarkedErrors(diagnostics, BAD, 14);
});

import { IsString } from "class-validator";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  alt,
  client,
  ClientError,
  Day,
  type FormFile,
  HttpError,
  Int,
  match,
  queryParam,
  type RoutedRequest,
  route,
  testFetch,
  toApplication,
  UrlError,
} from "../src";
import {
  Body,
  Controller,
  clientFor,
  controllers,
  File as FileParam,
  Files,
  FormField,
  Handle,
  Match,
  PathVar,
  Query,
  Route,
} from "../decorators";

/*
 * The typed client at run time: calls find their route in the tree (method and path, values written by
 * their parsers), go through a Fetch-shaped transport — testFetch(app) in memory, or the real fetch over
 * node:http — and read the answer (JSON, text, bytes, nothing); 4xx/5xx and network failures reject with
 * a ClientError carrying the status, the body and a 400's errors. The types are in test/types/client.test.ts.
 */

interface User {
  id: number;
  name: string;
  born: Date;
}
const USERS: User[] = [{ id: 7, name: "ada", born: new Date("1815-12-10T00:00:00Z") }];

const byId = (req: RoutedRequest<{ id: number }>) => {
  const user = USERS.find((u) => u.id === req.vars.id);
  if (user === undefined) throw new HttpError(404, `no user ${req.vars.id}`);
  return user;
};
const list = (req: RoutedRequest) => {
  const limit = queryParam(req, "limit", Int, { optional: true }) ?? 10;
  return USERS.slice(0, limit);
};
const create = async (req: RoutedRequest) => ({ created: await req.json<{ name: string }>() });
const remove = (_req: RoutedRequest<{ id: number }>) => undefined;
const hello = () => "hello";
const onDay = (req: RoutedRequest<{ org: string; on: Day }>) => ({ org: req.vars.org, on: req.vars.on.toString() });
const boom = () => {
  throw new Error("boom");
};

const app = alt(
  route("GET /users/id:Int", byId),
  route("GET /users", list),
  route("POST /users", create),
  route("DELETE /users/id:Int", remove),
  route("GET /hello", hello),
  match("/orgs/org:Text", route("GET /on/on:Day", onDay)),
  route("GET /boom", boom),
);

const handlers = { byId, list, create, remove, hello, onDay, boom };

afterEach(() => jest.restoreAllMocks());

describe("client(app, handlers) through testFetch (no socket)", () => {
  const api = client(app, handlers, { fetch: testFetch(app) });

  test("a call finds its route, writes its values, and reads the JSON answer", async () => {
    expect(await api.byId({ id: 7 })).toEqual({ id: 7, name: "ada", born: "1815-12-10T00:00:00.000Z" });
    expect(await api.list(undefined, { query: { limit: 1 } })).toHaveLength(1);
    expect(await api.create({}, { body: { name: "grace" } })).toEqual({ created: { name: "grace" } });
  });

  test("values are written by their parsers, variables of an enclosing match included", async () => {
    expect(await api.onDay({ org: "a b/c", on: Day.of(2024, 2, 29) })).toEqual({ org: "a b/c", on: "2024-02-29" });
  });

  test("text is a string, 204 is undefined", async () => {
    expect(await api.hello()).toBe("hello");
    expect(await api.remove({ id: 7 })).toBeUndefined();
  });

  test("a 4xx rejects with a ClientError: status, body", async () => {
    const error = await api.byId({ id: 8 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ status: 404, body: { error: "no user 8" }, errors: [] });
    expect((error as ClientError).message).toBe("GET /users/8 answered 404: no user 8");
  });

  test("a 400 carries the failing fields as `errors`", async () => {
    const error = (await api.list(undefined, { query: { limit: "many" } }).catch((e: unknown) => e)) as ClientError;
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([expect.objectContaining({ in: "query", field: "limit" })]);
  });

  test("a 500 rejects, its body what the server said", async () => {
    jest.spyOn(console, "error").mockImplementation(() => {});
    const error = (await api.boom().catch((e: unknown) => e)) as ClientError;
    expect([error.status, error.body]).toEqual([500, "Internal Server Error"]);
  });

  test("a value its parser cannot write is refused before anything is sent", async () => {
    const sent: string[] = [];
    const spy = client(app, handlers, {
      fetch: (url, init) => {
        sent.push(url);
        return testFetch(app)(url, init);
      },
    });
    await expect(spy.byId({ id: 1.5 })).rejects.toThrow(UrlError);
    await expect(spy.byId({} as { id: number })).rejects.toThrow(/no value for "id"/);
    expect(sent).toEqual([]);
  });

  test("a handler that is not in the tree is a UrlError", async () => {
    const stray = client(app, { stray: () => "x" }, { fetch: testFetch(app) });
    await expect(stray.stray()).rejects.toThrow(/is not in this tree/);
  });
});

describe("over node:http with the real fetch", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(toApplication(app)).listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await once(server, "close");
  });

  test("the same calls answer the same, baseUrl and headers applied", async () => {
    const api = client(app, handlers, { baseUrl: `${base}/`, headers: { "x-test": "1" } });
    expect(await api.byId({ id: 7 })).toEqual({ id: 7, name: "ada", born: "1815-12-10T00:00:00.000Z" });
    expect(await api.onDay({ org: "acme", on: Day.of(2024, 1, 2) })).toEqual({ org: "acme", on: "2024-01-02" });
    await expect(api.byId({ id: 9 })).rejects.toMatchObject({ status: 404 });
  });

  test("a network failure rejects with a ClientError of status 0", async () => {
    const api = client(app, handlers, { baseUrl: "http://127.0.0.1:1" });
    const error = (await api.hello().catch((e: unknown) => e)) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.status).toBe(0);
    expect(error.cause).toBeDefined();
  });
});

describe("clientFor(app, Controller)", () => {
  class CreateUser {
    @IsString()
    name!: string;
  }

  class Users extends Controller("/orgs/org:Text/users") {
    @Handle("GET /id:Int")
    byId(req: RoutedRequest<{ org: string; id: number }>) {
      return { org: req.vars.org, id: req.vars.id };
    }
    @Handle("GET /")
    list() {
      return ["ada"];
    }
  }

  @Match("/legacy")
  class Legacy {
    @Route("GET /id:Int")
    byId(@PathVar("id") id: number, @Query("verbose", Int, { optional: true }) verbose?: number) {
      return { id, verbose: verbose ?? null };
    }
    @Route("POST /")
    create(@Body(CreateUser) user: CreateUser) {
      return { made: user.name };
    }
    @Route("POST /files/id:Int")
    async files(
      @PathVar("id") id: number,
      @FormField("count", Int) count: number,
      @Files("part") parts: FormFile[],
      @FileParam("extra", { optional: true }) extra: FormFile | undefined,
    ) {
      return {
        id,
        count,
        parts: await Promise.all(parts.map(async (p) => `${p.name}:${await p.text()}`)),
        extra: extra?.name ?? null,
      };
    }
  }

  const tree = alt(match("/v1", controllers([Users, Legacy])));
  const transport = { fetch: testFetch(tree) };

  test("@Handle methods take their variables, the prefix's included", async () => {
    const users = clientFor(tree, Users, transport);
    expect(await users.byId({ org: "acme", id: 7 })).toEqual({ org: "acme", id: 7 });
    expect(await users.list({ org: "acme" })).toEqual(["ada"]);
  });

  test("@PathVar methods take their own arguments, each sent where its decorator reads it", async () => {
    const legacy = clientFor(tree, Legacy, transport);
    expect(await legacy.byId(7)).toEqual({ id: 7, verbose: null });
    expect(await legacy.byId(7, 2)).toEqual({ id: 7, verbose: 2 });
    expect(await legacy.create({ name: "grace" })).toEqual({ made: "grace" });
  });

  test("form arguments go as one multipart form: fields written by their parsers, files as parts", async () => {
    const legacy = clientFor(tree, Legacy, transport);
    const parts = [new File(["a"], "a.txt"), new File(["b\r\n--x"], "b.txt", { type: "text/plain" })];
    expect(await legacy.files(7, -3, parts, undefined)).toEqual({
      id: 7,
      count: -3,
      parts: ["a.txt:a", "b.txt:b\r\n--x"],
      extra: null,
    });
    expect(await legacy.files(7, 0, [], new File([], "e.bin"))).toMatchObject({ parts: [], extra: "e.bin" });
    const refused = await legacy.files(7, 1.5, [], undefined).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
  });

  test("errors reject as for client()", async () => {
    const users = clientFor(tree, Users, transport);
    await expect(users.byId({ org: "acme", id: 1.5 })).rejects.toThrow(UrlError);
    const elsewhere = clientFor(tree, Legacy, { fetch: testFetch(alt()) });
    await expect(elsewhere.byId(7)).rejects.toMatchObject({ status: 404, message: "GET /v1/legacy/7 answered 404" });
    const unmounted = clientFor(alt(), Legacy, transport);
    await expect(unmounted.byId(7)).rejects.toThrow(/is not in this tree/);
  });
});

import "reflect-metadata";
import { container } from "tsyringe";
import { ClientError, client, testFetch } from "../src";
import { clientFor } from "../decorators";
import { createApp as createControllersApp } from "../samples/controllers/app";
import { UserId } from "../samples/controllers/ids";
import { UploadsController } from "../samples/controllers/media";
import { UsersController } from "../samples/controllers/users";
import { createApp, createHandlers, createUserStore } from "../samples/functional/app";
import { reachedTwoWays } from "./helpers/reached-two-ways";

/*
 * The typed client against both samples (issue 26): the functional sample through its own handlers,
 * the controllers sample through its controller class; over HTTP (node:http on 127.0.0.1, the global
 * fetch) and in memory (testFetch), with the same answers.
 */

describe("the functional sample through the typed client", () => {
  const store = createUserStore();
  const handlers = createHandlers(store);
  const app = createApp(store, "k", handlers);
  test.each(reachedTwoWays(app))(
    "%s: typed calls answer as the routes do; a 404 is a ClientError",
    async (_how, options) => {
      const api = client(app, handlers, options());
      expect(await api.health({})).toEqual({ status: "ok" });
      expect(await api.userById({ id: 1 })).toEqual({ id: 1, name: "ada" });
      expect(await api.userByName({ name: "grace" })).toEqual({ id: 2, name: "grace" });
      expect((await api.listUsers({})).map((u) => u.name)).toEqual(["ada", "grace"]);
      const missing = await api.userByName({ name: "nobody" }).catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(ClientError);
      expect((missing as ClientError).status).toBe(404);
    },
  );
});

test("the functional sample's calls are typed by its handlers (tsc checks these lines)", async () => {
  const store = createUserStore();
  const handlers = createHandlers(store);
  const app = createApp(store, "k", handlers);
  const api = client(app, handlers, { fetch: testFetch(app) });
  // @ts-expect-error: the route's id is a number
  await api.userById({ id: "1" }).catch(() => undefined);
  // @ts-expect-error: the route captures no `nom`
  await api.userByName({ nom: "ada" }).catch(() => undefined);
  const user: { id: number; name: string } = await api.userById({ id: 2 });
  expect(user.name).toBe("grace");
});

describe("the functional sample through client<typeof app>()", () => {
  const app = createApp(createUserStore(), "k");
  test.each(reachedTwoWays(app))(
    "%s: every route its patterns name, called by template; declared bodies and replies typed",
    async (_how, options) => {
      const api = client<typeof app>(options());
      expect(await api["/health"].get()).toEqual({ status: "ok" });
      const user: { id: number; name: string } = await api["/api/users/id:Int"].get({ vars: { id: 1 } });
      expect(user).toEqual({ id: 1, name: "ada" });
      // a fall-through: a segment that is no Int reaches the route by name
      expect(await api["/api/users/name:Text"].get({ vars: { name: "grace" } })).toEqual({ id: 2, name: "grace" });
      const made: { id: number; name: string } = await api["/api/users"].post({ body: { name: "edsger" } });
      expect(made).toEqual({ id: 3, name: "edsger" });
      expect((await api["/api/users"].get()).map((u) => u.name)).toEqual(["ada", "grace", "edsger"]);
      expect(await api["/static/*"].get({ rest: ["a", "b"] })).toBe("you asked for a/b");
      // the guard lets the API key through
      expect(await api["/api/users/id:Int"].delete({ vars: { id: 3 }, headers: { "x-api-key": "k" } })).toBeUndefined();
      const refused = await api["/api/users/id:Int"].delete({ vars: { id: 1 } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ClientError);
      expect((refused as ClientError).status).toBe(404);
      const invalid = await api["/api/users"].post({ body: { name: "" } }).catch((error: unknown) => error);
      expect((invalid as ClientError).status).toBe(400);
      expect((invalid as ClientError).errors.length).toBeGreaterThan(0);
    },
  );

  test("tsc checks the calls: an unknown template, a wrong variable, a wrong body", async () => {
    const api = client<typeof app>({ fetch: testFetch(app) });
    // @ts-expect-error: the report route is written with the four functions, which name no template
    void api["/api/reports/on:Day"];
    // @ts-expect-error: the route's id is a number
    await api["/api/users/id:Int"].get({ vars: { id: "1" } }).catch(() => undefined);
    // @ts-expect-error: the body's name is a string (CreateUser, as described() declares)
    await api["/api/users"].post({ body: { name: 1 } }).catch(() => undefined);
    // @ts-expect-error: no PUT on that template
    void api["/api/users"].put;
    expect(await api["/api/users/id:Int"].get({ vars: { id: 2 } })).toEqual({ id: 2, name: "grace" });
  });
});

describe("the controllers sample through clientFor", () => {
  const app = createControllersApp(container.createChildContainer(), "k");
  test.each(reachedTwoWays(app))("%s: controller methods called with their own parameters", async (_how, options) => {
    const users = clientFor(app, UsersController, options());
    expect(await users.byId(UserId.of(1))).toEqual({ id: 1, name: "ada" });
    const refused = await users.byId(UserId.of(99)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientError);
    expect((refused as ClientError).status).toBe(404);
  });

  test.each(reachedTwoWays(app))(
    "%s: a @File and a @FormField argument go as a multipart form",
    async (_how, options) => {
      const uploads = clientFor(app, UploadsController, options());
      const bytes = new Uint8Array([0, 1, 2, 250, 255, 10, 13]);
      const avatar = new File([bytes], "me.png", { type: "image/png" });
      let checksum = 0;
      for (const byte of bytes) checksum = (checksum * 31 + byte) % 1_000_000_007;
      expect(await uploads.upload(avatar, "hello, ünïcode")).toEqual({
        name: "me.png",
        type: "image/png",
        size: bytes.byteLength,
        checksum,
        caption: "hello, ünïcode",
      });
      // the optional field left out: the route reads it missing
      expect(await uploads.upload(avatar, undefined)).toMatchObject({ caption: null });
      // no file: the route's 400 names it
      const missing = await uploads.upload(undefined as unknown as Blob, "x").catch((error: unknown) => error);
      expect((missing as ClientError).status).toBe(400);
    },
  );
});

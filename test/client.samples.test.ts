import "reflect-metadata";
import { container } from "tsyringe";
import { ClientError, client, testFetch } from "../src";
import { clientFor } from "../decorators";
import { createApp as createControllersApp } from "../samples/controllers/app";
import { UserId } from "../samples/controllers/ids";
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

describe("the controllers sample through clientFor", () => {
  const app = createControllersApp(container.createChildContainer(), "k");
  test.each(reachedTwoWays(app))("%s: controller methods called with their own parameters", async (_how, options) => {
    const users = clientFor(app, UsersController, options());
    expect(await users.byId(UserId.of(1))).toEqual({ id: 1, name: "ada" });
    const refused = await users.byId(UserId.of(99)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientError);
    expect((refused as ClientError).status).toBe(404);
  });
});

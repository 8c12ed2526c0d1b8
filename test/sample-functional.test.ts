import { inject } from "../src";
import { createApp, createUserStore } from "../samples/functional/app";

// The functional sample, exercised the way its README section describes it.
describe("functional sample app", () => {
  const app = () => createApp(createUserStore(), "k");

  test("health and listing", async () => {
    const tree = app();
    expect(await inject(tree, { url: "/health" })).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(JSON.parse((await inject(tree, { url: "/api/users" })).body)).toEqual([
      { id: 1, name: "ada" },
      { id: 2, name: "grace" },
    ]);
  });

  test("an Int id is tried first; other segments fall through to the route by name", async () => {
    const tree = app();
    expect(JSON.parse((await inject(tree, { url: "/api/users/2" })).body)).toEqual({ id: 2, name: "grace" });
    expect(JSON.parse((await inject(tree, { url: "/api/users/ada" })).body)).toEqual({ id: 1, name: "ada" });
    // id 99 parses as Int, but the handler passes (routeMismatch), so the name route answers
    expect(await inject(tree, { url: "/api/users/99" })).toMatchObject({
      status: 404,
      body: '{"error":"no such user"}',
    });
  });

  test("POST reads the JSON body", async () => {
    const tree = app();
    const created = await inject(tree, { method: "POST", url: "/api/users", body: '{"name":"linus"}' });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toEqual({ id: 3, name: "linus" });
    expect((await inject(tree, { method: "POST", url: "/api/users", body: "{}" })).status).toBe(400);
  });

  test("the four-function route parses a Day and rejects impossible dates", async () => {
    const tree = app();
    expect(JSON.parse((await inject(tree, { url: "/api/reports/2024-02-29" })).body)).toEqual({
      day: "2024-02-29",
      users: 2,
    });
    expect((await inject(tree, { url: "/api/reports/2023-02-29" })).status).toBe(404);
  });

  test("the guard lets only requests with the API key reach DELETE", async () => {
    const tree = app();
    expect((await inject(tree, { method: "DELETE", url: "/api/users/1" })).status).toBe(404);
    expect((await inject(tree, { method: "DELETE", url: "/api/users/1", headers: { "x-api-key": "k" } })).status).toBe(
      204,
    );
    expect((await inject(tree, { url: "/api/users/1" })).status).toBe(404);
  });

  test("a match prefix hands the rest of the path to its handler", async () => {
    expect((await inject(app(), { url: "/static/css/a.css" })).body).toBe("you asked for css/a.css");
  });
});

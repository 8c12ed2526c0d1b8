/*
 * Child process of the framework benchmark (Bun): the API (bench/frameworks/api.js) on Elysia 1.4,
 * validated by TypeBox schemas (`t.Object`); prints its port. Elysia answers a validation error with
 * 422; the API says 400, so an error hook gives Elysia's own error body that status.
 */
import { Elysia, t } from "elysia";
import { FILLER, fillerBody, NAME_MAX, NAME_MIN } from "../api.js";

const app = new Elysia()
  .onError(({ code, error }) =>
    code === "VALIDATION"
      ? new Response(error.message, { status: 400, headers: { "content-type": "application/json" } })
      : undefined,
  )
  .get("/users/:id", ({ params: { id } }) => ({ id, name: `user ${id}` }), {
    params: t.Object({ id: t.Integer() }),
  })
  .get("/users", ({ query: { page } }) => ({ page, users: [] }), { query: t.Object({ page: t.Integer() }) })
  .post("/users", ({ body, status }) => status(201, { id: 1, name: body.name, age: body.age }), {
    body: t.Object({ name: t.String({ minLength: NAME_MIN, maxLength: NAME_MAX }), age: t.Integer({ minimum: 0 }) }),
  });
for (const [method, path] of FILLER) app.route(method, path, () => fillerBody(method, path));

app.listen({ port: 0, hostname: "127.0.0.1" });
process.stdout.write(`${app.server.port}\n`);

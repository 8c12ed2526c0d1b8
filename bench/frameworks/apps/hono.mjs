/*
 * Child process of the framework benchmark: the API (bench/frameworks/api.js) on Hono, validated by
 * @hono/zod-validator (the query and the body; the id by the route's own `{[0-9]+}` pattern), served by
 * Bun.serve under Bun and by @hono/node-server on Node; prints its port.
 */
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { z } from "zod";
import { FILLER, fillerBody, NAME_MAX, NAME_MIN } from "../api.js";

const CreateUser = z.object({ name: z.string().min(NAME_MIN).max(NAME_MAX), age: z.number().int().min(0) });
const Page = z.object({ page: z.coerce.number().int() });

const app = new Hono();
app.get("/users/:id{[0-9]+}", (c) => {
  const id = Number(c.req.param("id"));
  return c.json({ id, name: `user ${id}` });
});
app.get("/users", zValidator("query", Page), (c) => c.json({ page: c.req.valid("query").page, users: [] }));
app.post("/users", zValidator("json", CreateUser), (c) => {
  const user = c.req.valid("json");
  return c.json({ id: 1, name: user.name, age: user.age }, 201);
});
for (const [method, path] of FILLER) app.on(method, path, (c) => c.json(fillerBody(method, path)));

if (globalThis.Bun !== undefined) {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
  process.stdout.write(`${server.port}\n`);
} else {
  const { serve } = await import("@hono/node-server");
  serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => process.stdout.write(`${info.port}\n`));
}

/*
 * The framework benchmark's API as a functional app validated by a Standard Schema (zod) — what the Hono
 * app validates with — and no decorators: the like-for-like column beside Hono's cold start on Bun.
 */
import { alt, body, Int, json, queryParam, route } from "switchyard-router";
import { z } from "zod";
import { filler } from "./filler.js";

const CreateUser = z.object({ name: z.string().min(1).max(40), age: z.number().int().min(0) });

/** The whole API: the three routes, then the filler routes. */
export const app = alt(
  route("GET /users/id:Int", (req) => ({ id: req.vars.id, name: `user ${req.vars.id}` })),
  route("GET /users", (req) => ({ page: queryParam(req, "page", Int), users: [] })),
  route("POST /users", async (req) => {
    const user = await body(req, CreateUser);
    return json({ id: 1, name: user.name, age: user.age }, { status: 201 });
  }),
  filler,
);

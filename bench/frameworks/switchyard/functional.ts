/*
 * The framework benchmark's API with the functional counterparts of the decorated app: the same
 * class-validator DTO, read by body().
 */
import { alt, Int, json, queryParam, route } from "switchyard-router";
import { body } from "switchyard-router/decorators";
import { CreateUser } from "./create-user.js";
import { filler } from "./filler.js";

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

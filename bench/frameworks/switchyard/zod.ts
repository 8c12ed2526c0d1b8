/*
 * The framework benchmark's API as the decorated controller with a Standard Schema (zod) body in place
 * of the class-validator DTO.
 */
import { alt, Int, json } from "switchyard-router";
import { Body, controllers, PathVar, Query, Route } from "switchyard-router/decorators";
import { z } from "zod";
import { filler } from "./filler.js";

const CreateUser = z.object({ name: z.string().min(1).max(40), age: z.number().int().min(0) });

class Users {
  @Route("GET /users/id:Int")
  byId(@PathVar("id") id: number) {
    return { id, name: `user ${id}` };
  }

  @Route("GET /users")
  list(@Query("page", Int) page: number) {
    return { page, users: [] };
  }

  @Route("POST /users")
  create(@Body(CreateUser) user: z.infer<typeof CreateUser>) {
    return json({ id: 1, name: user.name, age: user.age }, { status: 201 });
  }
}

/** The whole API: the controller, then the filler routes. */
export const app = alt(controllers([Users]), filler);

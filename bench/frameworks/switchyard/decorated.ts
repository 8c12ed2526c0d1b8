/*
 * The framework benchmark's API as a decorated controller (class-validator DTO): the reference column.
 */
import { alt, Int, json } from "switchyard-router";
import { Body, controllers, PathVar, Query, Route } from "switchyard-router/decorators";
import { CreateUser } from "./create-user.js";
import { filler } from "./filler.js";

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
  create(@Body() user: CreateUser) {
    return json({ id: 1, name: user.name, age: user.age }, { status: 201 });
  }
}

/** The whole API: the controller, then the filler routes. */
export const app = alt(controllers([Users]), filler);

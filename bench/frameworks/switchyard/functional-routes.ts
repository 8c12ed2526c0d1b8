/*
 * The framework benchmark's API as the functional switchyard apps write it: the class-validator app and
 * the zod one differ only in how the POST route reads its body.
 */
import { alt, Int, json, queryParam, type RoutedRequest, route } from "switchyard-router";
import { filler } from "./filler.js";

/** A user to create, as the POST body's validator gives it. */
interface NewUser {
  readonly name: string;
  readonly age: number;
}

/** The whole API, the POST body read by `readUser` (a 400 when invalid): the three routes, then the filler routes. */
export function functionalApi(readUser: (req: RoutedRequest) => Promise<NewUser>) {
  return alt(
    route("GET /users/id:Int", (req) => ({ id: req.vars.id, name: `user ${req.vars.id}` })),
    route("GET /users", (req) => ({ page: queryParam(req, "page", Int), users: [] })),
    route("POST /users", async (req) => {
      const user = await readUser(req);
      return json({ id: 1, name: user.name, age: user.age }, { status: 201 });
    }),
    filler,
  );
}

/**
 * Path types of the sample: newtypes over built-in types, refined with class-validator. A segment
 * that parses as the base type but fails a constraint is a mismatch, so the next route is tried.
 */
import { Length, Matches, Min } from "class-validator";
import { Int, Text } from "switchyard-router";
import { Newtype, PathType } from "switchyard-router/decorators";

/** A user id: an `Int` of at least 1. `"GET /users/id:UserId"` matches /users/7, not /users/0. */
@PathType()
export class UserId extends Newtype(Int) {
  @Min(1) declare readonly value: number;
}

/** A user name: 3 to 20 lower-case letters, digits or `_`, starting with a letter. */
@PathType()
export class Username extends Newtype(Text) {
  @Length(3, 20)
  @Matches(/^[a-z][a-z0-9_]*$/)
  declare readonly value: string;
}

// Lets `route("GET /users/id:UserId", …)` type `req.vars.id` as a UserId in functional routes too.
declare module "switchyard-router" {
  interface PathTypes {
    UserId: UserId;
    Username: Username;
  }
}

/**
 * Path types of the sample: newtypes over built-in types, refined with class-validator. A segment
 * that parses as the base type but fails a constraint is a mismatch, so the next route is tried; a
 * query value, header or body that fails one is a 400.
 */
import { IsInt, IsString, Length, Matches, Min } from "class-validator";
import { Int, Text } from "switchyard-router";
import { Newtype, PathType } from "switchyard-router/decorators";

/** A user id: an `Int` of at least 1. `"GET /users/id:UserId"` matches /users/7, not /users/0. */
@PathType()
export class UserId extends Newtype(Int) {
  @Min(1) declare readonly value: number;
}

// the pattern types' names, for the type checker of @Route patterns ("GET /id:UserId")
declare module "switchyard-router" {
  interface PathTypes {
    UserId: UserId;
    Username: Username;
  }
}

/** What a user name is made of: lower-case letters, digits or `_`, starting with a letter. */
const USERNAME = /^[a-z][a-z0-9_]*$/;

/** A user name in a path, 3 to 20 characters: a segment that is no user name is a mismatch. */
@PathType()
export class Username extends Newtype(Text) {
  @Length(3, 20)
  @Matches(USERNAME)
  declare readonly value: string;
}

/** The body of POST /api/users: the same rules, checked by @Body; a body that breaks them is a 400. */
export class CreateUser {
  @IsString()
  @Length(3, 20)
  @Matches(USERNAME, { message: "name must be lower-case letters, digits or _, starting with a letter" })
  name!: string;
}

/** A user as the API gives it; the OpenAPI document reads its shape from these rules too. */
export class User {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  @Length(3, 20)
  @Matches(USERNAME)
  name!: string;
}

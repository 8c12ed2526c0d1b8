/**
 * The users controller: the functional sample's /api routes, written as a decorated class, with query,
 * header and body parameters, a guard, and the replies each route gives for the OpenAPI document.
 */
import { Int, json, routeMismatch, Text, type Reply, type RouteMismatch } from "switchyard-router";
import { Body, Describe, Guard, Header, Match, PathVar, Query, Route } from "switchyard-router/decorators";
import { injectable } from "tsyringe";
import { ApiKeyGuard } from "./api-key";
import { CreateUser, User, UserId, Username } from "./ids";

/** The body of the handlers' own 404s, as JSON Schema. */
const NoSuchUser = {
  type: "object",
  properties: { error: { const: "no such user" } },
  required: ["error"],
} as const;

/** An in-memory store, so the sample runs with no database; the app makes one per container. */
@injectable()
export class UserStore {
  private readonly users = new Map<number, User>([
    [1, { id: 1, name: "ada" }],
    [2, { id: 2, name: "grace" }],
  ]);

  all(): User[] {
    return [...this.users.values()];
  }
  byId(id: number): User | undefined {
    return this.users.get(id);
  }
  byName(name: string): User | undefined {
    return this.all().find((u) => u.name === name);
  }
  add(name: string): User {
    const user = { id: Math.max(0, ...this.users.keys()) + 1, name };
    this.users.set(user.id, user);
    return user;
  }
  remove(id: number): boolean {
    return this.users.delete(id);
  }
}

@injectable()
@Match("/api/users")
export class UsersController {
  constructor(private readonly store: UserStore) {}

  // ?limit=2&prefix=a&name=ada&name=grace — all optional (no name: everyone); ?limit=two is a 400 naming "limit"
  @Describe({
    summary: "List the users",
    responses: { 200: { description: "the users, in id order", schema: [User] } },
  })
  @Route("GET /")
  list(
    @Query("limit", Int, { optional: true }) limit?: number,
    @Query("prefix", Text, { optional: true }) prefix?: string,
    @Query("name") names: string[] = [],
  ): User[] {
    const users = this.store
      .all()
      .filter((u) => prefix === undefined || u.name.startsWith(prefix))
      .filter((u) => names.length === 0 || names.includes(u.name));
    return limit === undefined ? users : users.slice(0, limit);
  }

  // Before the variable routes, so "me" is never taken for a name. The header is required: without
  // it, or with one that is no UserId, the answer is a 400 naming the header.
  @Describe({
    summary: "The user the x-user-id header names",
    responses: {
      200: { description: "the user", schema: User },
      404: { description: "no user has that id", schema: NoSuchUser },
    },
  })
  @Route("GET /me")
  me(@Header("x-user-id", UserId) id: UserId): User | Reply {
    return this.store.byId(id.value) ?? json({ error: "no such user" }, { status: 404 });
  }

  // Ordered first match: a UserId (an Int ≥ 1) is tried first; anything else, and an id nobody
  // has (routeMismatch), falls through to the route by name.
  @Describe({ summary: "A user by id", responses: { 200: { description: "the user", schema: User } } })
  @Route("GET /id:UserId")
  byId(@PathVar("id") id: UserId): User | RouteMismatch {
    return this.store.byId(id.value) ?? routeMismatch();
  }

  @Describe({
    summary: "A user by name",
    responses: {
      200: { description: "the user", schema: User },
      404: { description: "no user has that name", schema: NoSuchUser },
    },
  })
  @Route("GET /name:Username")
  byName(@PathVar("name") name: Username): User | Reply {
    return this.store.byName(name.value) ?? json({ error: "no such user" }, { status: 404 });
  }

  // The body is validated against CreateUser: an invalid one is a 400 listing each failing field.
  @Describe({ summary: "Add a user", responses: { 201: { description: "the new user", schema: User } } })
  @Route("POST /")
  create(@Body(CreateUser, { forbidNonWhitelisted: true }) user: CreateUser): Reply {
    return json(this.store.add(user.name), { status: 201 });
  }

  // Guarded: without the right API key the route does not match (a 404, as if it were not there).
  @Describe({ summary: "Remove a user (needs the x-api-key header)", responses: { 204: { description: "removed" } } })
  @Guard(ApiKeyGuard)
  @Route("DELETE /id:UserId")
  remove(@PathVar("id") id: UserId): undefined | RouteMismatch {
    return this.store.remove(id.value) ? undefined : routeMismatch();
  }
}

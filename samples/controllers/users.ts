/** The users controller: the functional sample's /api routes, written as a decorated class. */
import { json, routeMismatch, type Reply, type RoutedRequest, type RouteMismatch } from "switchyard-router";
import { Match, PathVar, Req, Route } from "switchyard-router/decorators";
import { inject, injectable } from "tsyringe";
import { UserId, Username } from "./ids";

export interface User {
  readonly id: number;
  readonly name: string;
}

/** An in-memory store, so the sample runs with no database; the app makes one per container. */
@injectable()
export class UserStore {
  private readonly users = new Map<number, User>([[1, { id: 1, name: "ada" }], [2, { id: 2, name: "grace" }]]);

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

/** The API key DELETE needs; the app registers it in the container. */
export const API_KEY = "ApiKey";

@injectable()
@Match("/api/users")
export class UsersController {
  constructor(
    private readonly store: UserStore,
    @inject(API_KEY) private readonly apiKey: string,
  ) {}

  @Route("GET /")
  list(): User[] {
    return this.store.all();
  }

  // Ordered first match: a UserId (an Int ≥ 1) is tried first; anything else, and an id nobody
  // has (routeMismatch), falls through to the route by name.
  @Route("GET /id:UserId")
  byId(@PathVar("id") id: UserId): User | RouteMismatch {
    return this.store.byId(id.value) ?? routeMismatch();
  }

  @Route("GET /name:Username")
  byName(@PathVar("name") name: Username): User | Reply {
    return this.store.byName(name.value) ?? json({ error: "no such user" }, { status: 404 });
  }

  @Route("POST /")
  async create(@Req() req: RoutedRequest): Promise<Reply> {
    const body = await req.json<{ name?: unknown }>();
    // the same rules as the path type: a name that could not be looked up is refused
    if (typeof body.name !== "string" || !Username.isValid(Username.of(body.name))) {
      return json({ error: "name must be 3 to 20 lower-case letters, digits or _" }, { status: 400 });
    }
    return json(this.store.add(body.name), { status: 201 });
  }

  // A custom criterion, as a guard would be: without the API key the route does not match.
  @Route("DELETE /id:UserId")
  remove(@PathVar("id") id: UserId, @Req() req: RoutedRequest): undefined | RouteMismatch {
    if (req.headers.get("x-api-key") !== this.apiKey) return routeMismatch();
    return this.store.remove(id.value) ? undefined : routeMismatch();
  }
}

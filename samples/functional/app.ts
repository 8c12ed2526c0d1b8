/**
 * A small users API written with the functional form of switchyard: patterns first, with the
 * equivalent four-function form shown next to one route.
 */
import {
  alt,
  Day,
  guard,
  json,
  match,
  method,
  path,
  pathEnd,
  pathVar,
  route,
  routeMismatch,
  type RoutedRequest,
} from "switchyard-router";

interface User {
  readonly id: number;
  readonly name: string;
}

/** An in-memory store, so the sample runs with no database. */
export function createUserStore(
  initial: readonly User[] = [
    { id: 1, name: "ada" },
    { id: 2, name: "grace" },
  ],
) {
  const users = new Map(initial.map((u) => [u.id, u]));
  return {
    all: () => [...users.values()],
    byId: (id: number) => users.get(id),
    byName: (name: string) => [...users.values()].find((u) => u.name === name),
    add(name: string): User {
      const user = { id: Math.max(0, ...users.keys()) + 1, name };
      users.set(user.id, user);
      return user;
    },
    remove: (id: number) => users.delete(id),
  };
}

/** A custom routing criterion (spec 1.2): requests without the API key do not match. */
export const hasApiKey = (apiKey: string) => (req: RoutedRequest<object>) => req.headers.get("x-api-key") === apiKey;

export function createApp(store = createUserStore(), apiKey = "let-me-in") {
  return alt(
    route("GET /health", () => ({ status: "ok" })),

    match(
      "/api",
      alt(
        route("GET /users", () => store.all()),

        // Ordered first match: an Int id is tried first; a segment that is not an Int falls through
        // to the route by name below.
        route("GET /users/id:Int", (req) => store.byId(req.vars.id) ?? routeMismatch()),
        route(
          "GET /users/name:Text",
          (req) => store.byName(req.vars.name) ?? json({ error: "no such user" }, { status: 404 }),
        ),

        route("POST /users", async (req) => {
          const body = await req.json<{ name?: unknown }>();
          if (typeof body.name !== "string" || body.name === "")
            return json({ error: "name is required" }, { status: 400 });
          return json(store.add(body.name), { status: 201 });
        }),

        // The same kind of route written with the four functions: route("GET /reports/on:Day", …)
        method(
          "GET",
          path(
            "/reports",
            pathVar(
              "on",
              Day,
              pathEnd((req) => ({ day: req.vars.on, users: store.all().length })),
            ),
          ),
        ),

        // Only requests carrying the API key reach the delete route.
        guard(
          hasApiKey(apiKey),
          route("DELETE /users/id:Int", (req) => (store.remove(req.vars.id) ? undefined : routeMismatch())),
        ),
      ),
    ),

    match("GET /static", (req) => `you asked for ${req.rest.join("/")}`),
  );
}

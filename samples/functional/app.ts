/**
 * A small users API written with the functional form of switchyard: patterns first, with the
 * equivalent four-function form shown next to one route. Handlers are named functions (their names are
 * the operation ids of the OpenAPI document), described with zod schemas for the body they read and
 * the replies they give.
 */
import {
  alt,
  body,
  Day,
  described,
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
import { z } from "zod";

/** A user as the API gives it (`id`: its name among the OpenAPI document's schemas). */
export const User = z.object({ id: z.number().int().min(1), name: z.string().min(1) }).meta({ id: "User" });
export type User = z.infer<typeof User>;

/** The body of POST /api/users: a non-empty name. */
export const CreateUser = z.object({ name: z.string().min(1) }).meta({ id: "CreateUser" });

/** The handlers' own 404. */
const NoSuchUser = z.object({ error: z.literal("no such user") });

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

/** The sample's handlers over `store`: what {@link createApp} routes, and what a typed client calls. */
export function createHandlers(store = createUserStore()) {
  const health = () => ({ status: "ok" as const });
  const listUsers = () => store.all();
  const userById = (req: RoutedRequest<{ id: number }>) => store.byId(req.vars.id) ?? routeMismatch();
  const userByName = (req: RoutedRequest<{ name: string }>) =>
    store.byName(req.vars.name) ?? json({ error: "no such user" }, { status: 404 });
  // body() validates with the zod schema: an invalid body is a 400 listing each failing field
  const createUser = async (req: RoutedRequest) => json(store.add((await body(req, CreateUser)).name), { status: 201 });
  const usersOn = (req: RoutedRequest<{ on: Day }>) => ({ day: req.vars.on, users: store.all().length });
  const removeUser = (req: RoutedRequest<{ id: number }>) => (store.remove(req.vars.id) ? undefined : routeMismatch());
  return { health, listUsers, userById, userByName, createUser, usersOn, removeUser };
}

/** The sample's route tree; `handlers` are {@link createHandlers}' (give the same ones to a typed client). */
export function createApp(store = createUserStore(), apiKey = "let-me-in", handlers = createHandlers(store)) {
  const { health, listUsers, userById, userByName, createUser, usersOn, removeUser } = handlers;

  return alt(
    route(
      "GET /health",
      described(health, {
        summary: "Is the server up?",
        responses: { 200: { description: "it is", schema: z.object({ status: z.literal("ok") }) } },
      }),
    ),

    match(
      "/api",
      alt(
        route(
          "GET /users",
          described(listUsers, {
            summary: "List the users",
            responses: { 200: { description: "the users", schema: z.array(User) } },
          }),
        ),

        // Ordered first match: an Int id is tried first; a segment that is not an Int falls through
        // to the route by name below.
        route(
          "GET /users/id:Int",
          described(userById, {
            summary: "A user by id",
            responses: { 200: { description: "the user", schema: User } },
          }),
        ),
        route(
          "GET /users/name:Text",
          described(userByName, {
            summary: "A user by name",
            responses: {
              200: { description: "the user", schema: User },
              404: { description: "no user has that name", schema: NoSuchUser },
            },
          }),
        ),

        route(
          "POST /users",
          described(createUser, {
            summary: "Add a user",
            inputs: [{ in: "body", type: "CreateUser", schema: CreateUser }],
            responses: { 201: { description: "the new user", schema: User } },
          }),
        ),

        // The same kind of route written with the four functions: route("GET /reports/on:Day", …)
        method(
          "GET",
          path(
            "/reports",
            pathVar(
              "on",
              Day,
              pathEnd(
                described(usersOn, {
                  summary: "How many users there are, on a day",
                  responses: {
                    200: {
                      description: "the report",
                      schema: z.object({ day: z.iso.date(), users: z.number().int().min(0) }),
                    },
                  },
                }),
              ),
            ),
          ),
        ),

        // Only requests carrying the API key reach the delete route.
        guard(
          hasApiKey(apiKey),
          route(
            "DELETE /users/id:Int",
            described(removeUser, {
              summary: "Remove a user (needs the x-api-key header)",
              responses: { 204: { description: "removed" } },
            }),
          ),
        ),
      ),
    ),

    match("GET /static", (req) => `you asked for ${req.rest.join("/")}`),
  );
}

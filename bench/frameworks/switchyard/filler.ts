/*
 * The 17 filler routes of the framework benchmark (FILLER in bench/frameworks/api.js), written as a user
 * would; every switchyard app routes them after its three real routes, and the check before timing
 * asks each one.
 */
import { alt, route } from "switchyard-router";

/** The filler routes, each answering {"route": its pattern in the `:var` syntax}. */
export const filler = alt(
  route("GET /health", () => ({ route: "GET /health" })),
  route("GET /version", () => ({ route: "GET /version" })),
  route("GET /users/id:Text/posts", () => ({ route: "GET /users/:id/posts" })),
  route("GET /users/id:Text/followers", () => ({ route: "GET /users/:id/followers" })),
  route("PUT /users/id:Text", () => ({ route: "PUT /users/:id" })),
  route("DELETE /users/id:Text", () => ({ route: "DELETE /users/:id" })),
  route("GET /posts", () => ({ route: "GET /posts" })),
  route("POST /posts", () => ({ route: "POST /posts" })),
  route("GET /posts/id:Text", () => ({ route: "GET /posts/:id" })),
  route("PATCH /posts/id:Text", () => ({ route: "PATCH /posts/:id" })),
  route("GET /posts/id:Text/comments", () => ({ route: "GET /posts/:id/comments" })),
  route("POST /posts/id:Text/comments", () => ({ route: "POST /posts/:id/comments" })),
  route("GET /tags", () => ({ route: "GET /tags" })),
  route("GET /tags/tag:Text", () => ({ route: "GET /tags/:tag" })),
  route("GET /orgs/org:Text", () => ({ route: "GET /orgs/:org" })),
  route("GET /orgs/org:Text/members", () => ({ route: "GET /orgs/:org/members" })),
  route("GET /orgs/org:Text/repos", () => ({ route: "GET /orgs/:org/repos" })),
);

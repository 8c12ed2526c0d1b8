import type { ListedRoute } from "../listing.js";

/*
 * Operation ids: unique in the document and read off names — the handler's (`info.name`, a controller's
 * `Class.method`, a function's name), or, for a handler with no name, the route's method and path
 * (`GET /api/users/{id}` is `getApiUsersById`). A name taken already gets a number (`show_2`).
 */

/** Hands out the operation ids of one document. */
export class OperationIds {
  private readonly taken = new Set<string>();

  /** The id of `route`'s operation, unique among those handed out so far. */
  take(route: ListedRoute): string {
    const base = route.handler === "(anonymous)" ? methodPathId(route) : route.handler;
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}_${n}`;
    this.taken.add(id);
    return id;
  }
}

/**
 * An id from the route's method and path, camel-cased: `get` + `Api` + `Users` + `ById`; `any` for a
 * route with no method; `Root` for the path `/`.
 */
export function methodPathId(route: ListedRoute): string {
  const words = route.segments.map((segment) =>
    typeof segment === "string" ? pascal(segment) : `By${pascal(segment.label)}`,
  );
  const path = words.join("") || "Root";
  return `${(route.method ?? "any").toLowerCase()}${path}`;
}

/** `users` → `Users`, `openapi.json` → `OpenapiJson`, `a-b_c` → `ABC`; nothing but letters and digits. */
function pascal(text: string): string {
  return text
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");
}

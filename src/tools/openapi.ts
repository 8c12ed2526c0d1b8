import { routeChainsOf } from "../chains.js";
import type { RouteNode } from "../tree.js";
import { listed, templateOf } from "./listing.js";
import { RouterErrors } from "./openapi/errors.js";
import { combined, listedUnder, type Member } from "./openapi/fall-through.js";
import { OperationIds } from "./openapi/ids.js";
import { operationOf } from "./openapi/operation.js";
import { Components } from "./openapi/schemas.js";
import type { OpenApiDocument, OpenApiObject, OpenApiOptions } from "./openapi/types.js";

export type { OpenApiDocument, OpenApiObject, OpenApiOptions } from "./openapi/types.js";

/*
 * An OpenAPI 3.1 document read off the tree (the map of this tool: src/tools/openapi/). Paths are the
 * route templates (literal segments percent-encoded: a `{` in a literal is no parameter); path
 * parameters take their schemas from the parsers; query, header and cookie parameters, request bodies
 * and replies from the handler info (`info.inputs`, `info.responses`), whose schemas are JSON Schema
 * objects or Standard JSON Schema values (operation.ts, schemas.ts); the router's own error replies
 * are shared components (errors.ts); operation ids come from names (ids.ts). Routes that share a path
 * and method are one operation that lists them in order (fall-through.ts). What OpenAPI cannot say is
 * kept under an `x-switchyard-…` key that says why: a route with any method or a method OpenAPI has no
 * field for, a route that leaves a rest to its handler. Routes whose info is `hidden` are left out.
 */

const OPENAPI_METHODS = new Set(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]);

/** The OpenAPI 3.1 document of `tree`'s routes, in route order. */
export function openapi(tree: RouteNode, options: OpenApiOptions): OpenApiDocument {
  if (typeof options?.info?.title !== "string" || typeof options.info.version !== "string") {
    throw new TypeError("openapi: options.info needs a title and a version (strings)");
  }
  const components = new Components();
  const ids = new OperationIds();
  const errors = new RouterErrors(components);
  /** The key of each path shape (variable names aside): OpenAPI treats `/u/{id}` and `/u/{name}` as one path. */
  const pathOfShape = new Map<string, { readonly key: string; readonly names: readonly string[] }>();
  /** The routes of each path and slot (a method's field, or an `x-` slot), in order. */
  const slots = new Map<string, Map<string, Member[]>>();
  routeChainsOf(tree).forEach((chain, index) => {
    const route = listed(chain, index);
    if (route.info?.hidden === true) return;
    const own = templateOf(chain.tests, (label) => `{${label}}`, encodeURIComponent);
    const shape = templateOf(chain.tests, () => "{}", encodeURIComponent);
    let path = pathOfShape.get(shape);
    if (path === undefined) pathOfShape.set(shape, (path = { key: own, names: route.variables.map((v) => v.label) }));
    const { operation } = operationOf(route, path.names, ids.take(route), { components, errors });
    if (path.key !== own) operation["x-switchyard-path"] = own;
    let bySlot = slots.get(path.key);
    if (bySlot === undefined) slots.set(path.key, (bySlot = new Map()));
    const slot = route.method !== null && OPENAPI_METHODS.has(route.method) ? route.method.toLowerCase() : route.method;
    const members = bySlot.get(slot ?? "*");
    if (members === undefined) bySlot.set(slot ?? "*", [{ route, operation }]);
    else members.push({ route, operation });
  });
  const paths: Record<string, OpenApiObject> = {};
  for (const [key, bySlot] of slots) {
    const item: OpenApiObject = (paths[key] = {});
    for (const [slot, members] of bySlot) {
      if (OPENAPI_METHODS.has(slot.toUpperCase()) && slot === slot.toLowerCase()) {
        item[slot] = members.length === 1 ? members[0]!.operation : combined(members, errors);
      } else placeOther(item, slot, members);
    }
  }
  const responses = errors.responses();
  const schemas = components.schemas;
  const hasComponents = Object.keys(schemas).length > 0 || Object.keys(responses).length > 0;
  return {
    openapi: "3.1.0",
    info: options.info,
    ...(options.servers === undefined ? {} : { servers: options.servers }),
    paths,
    ...(hasComponents
      ? {
          components: {
            ...(Object.keys(schemas).length > 0 ? { schemas } : {}),
            ...(Object.keys(responses).length > 0 ? { responses } : {}),
          },
        }
      : // a tree with no route: validators want an entry in paths, webhooks or components
        Object.keys(paths).length === 0
        ? { components: { schemas: {} } }
        : {}),
  };
}

/**
 * Routes with any method (`*`) or a method OpenAPI has no field for: under `x-switchyard-other-methods`,
 * with a note; later ones on the same slot under the first, as `x-` keys can say no more.
 */
function placeOther(item: OpenApiObject, slot: string, members: readonly Member[]): void {
  const others = (item["x-switchyard-other-methods"] ??= {}) as OpenApiObject;
  for (const { operation } of members) {
    operation["x-switchyard-note"] =
      slot === "*"
        ? "accepts any method, which OpenAPI 3.1 cannot state"
        : `the method ${slot} has no field in an OpenAPI 3.1 path item`;
    if (others[slot] === undefined) others[slot] = operation;
    else listedUnder(others[slot] as OpenApiObject, operation);
  }
}

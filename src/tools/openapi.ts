import type { ParserSchema } from "../parsers/parser.js";
import type { HandlerInput, RouteNode } from "../tree.js";
import { listed, templateOf, type ListedRoute, type ListedVariable } from "./listing.js";
import { routeChainsOf } from "../chains.js";

/*
 * An OpenAPI 3.1 document read off the tree. Paths are the route templates, path parameters take
 * their schemas from the parsers, operations their ids from the handler names and their tags and docs
 * from the handler info. Literal segments are percent-encoded (a `{` in a literal is no parameter). What OpenAPI cannot say exactly is still listed, under an `x-switchyard-…` key
 * that says why: a route with any method or a method OpenAPI has no field for, a route that leaves a
 * rest, and a second route on a path and method another route already has (it answers only what
 * the first passes on).
 */

/** A JSON object of the document. */
export type OpenApiObject = { [key: string]: unknown };

/** Options of {@link openapi}: the document's `info` (title and version at least) and `servers`. */
export interface OpenApiOptions {
  readonly info: { readonly title: string; readonly version: string } & Readonly<Record<string, unknown>>;
  readonly servers?: readonly ({ readonly url: string } & Readonly<Record<string, unknown>>)[];
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  readonly openapi: "3.1.0";
  readonly info: OpenApiOptions["info"];
  readonly servers?: OpenApiOptions["servers"];
  readonly paths: Readonly<Record<string, OpenApiObject>>;
  readonly components?: OpenApiObject;
}

const OPENAPI_METHODS = new Set(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]);

/** The OpenAPI 3.1 document of `tree`'s routes, in route order. */
export function openapi(tree: RouteNode, options: OpenApiOptions): OpenApiDocument {
  if (typeof options?.info?.title !== "string" || typeof options.info.version !== "string") {
    throw new TypeError("openapi: options.info needs a title and a version (strings)");
  }
  const paths: Record<string, OpenApiObject> = {};
  /** The key of each path shape (variable names aside): OpenAPI treats `/u/{id}` and `/u/{name}` as one path. */
  const pathOfShape = new Map<string, { readonly key: string; readonly names: readonly string[] }>();
  const operationIds = new Set<string>();
  routeChainsOf(tree).forEach((chain, index) => {
    const route = listed(chain, index);
    const own = templateOf(chain.tests, (label) => `{${label}}`, encodeURIComponent);
    const shape = templateOf(chain.tests, () => "{}", encodeURIComponent);
    let path = pathOfShape.get(shape);
    if (path === undefined) pathOfShape.set(shape, (path = { key: own, names: route.variables.map((v) => v.label) }));
    const operation = operationOf(route, path.names, uniqueId(route, operationIds));
    if (path.key !== own) operation["x-switchyard-path"] = own;
    place((paths[path.key] ??= {}), route, operation);
  });
  return {
    openapi: "3.1.0",
    info: options.info,
    ...(options.servers === undefined ? {} : { servers: options.servers }),
    paths,
    // a tree with no route: validators want an entry in paths, webhooks or components
    ...(Object.keys(paths).length === 0 ? { components: { schemas: {} } } : {}),
  };
}

/** Puts an operation where OpenAPI (or, failing that, an `x-` key) can hold it. */
function place(item: OpenApiObject, route: ListedRoute, operation: OpenApiObject): void {
  const method = route.method;
  if (method === null || !OPENAPI_METHODS.has(method)) {
    operation["x-switchyard-note"] =
      method === null
        ? "accepts any method, which OpenAPI 3.1 cannot state"
        : `the method ${method} has no field in an OpenAPI 3.1 path item`;
    const others = (item["x-switchyard-other-methods"] ??= {}) as OpenApiObject;
    const slot = method ?? "*";
    if (others[slot] === undefined) others[slot] = operation;
    else fallThrough(others[slot] as OpenApiObject, operation);
    return;
  }
  const field = method.toLowerCase();
  if (item[field] === undefined) item[field] = operation;
  else fallThrough(item[field] as OpenApiObject, operation);
}

/** A later route on a path and method an earlier one holds: listed under the earlier one. */
function fallThrough(earlier: OpenApiObject, operation: OpenApiObject): void {
  operation["x-switchyard-note"] =
    "an earlier route has this path and method; this one answers only what the earlier one passes on (routeMismatch, a refusing guard, a value its parser rejects)";
  ((earlier["x-switchyard-fall-through"] ??= []) as OpenApiObject[]).push(operation);
}

function operationOf(route: ListedRoute, names: readonly string[], operationId: string): OpenApiObject {
  const info = route.info;
  const operation: OpenApiObject = { operationId };
  if (info?.tags !== undefined) operation.tags = [...info.tags];
  if (info?.summary !== undefined) operation.summary = info.summary;
  if (info?.description !== undefined) operation.description = info.description;
  const parameters = [
    ...route.variables.map((v, i) => parameterOf(v, names[i]!)),
    ...(info?.inputs ?? []).flatMap(inputParameter),
  ];
  if (parameters.length > 0) operation.parameters = parameters;
  const body = info?.inputs?.find((input) => input.in === "body");
  if (body !== undefined && body.in === "body") {
    operation.requestBody = {
      required: true,
      content: { "application/json": { schema: { type: "object", ...body.schema, "x-switchyard-type": body.type } } },
    };
  }
  operation.responses = info?.responses ?? { default: { description: "the handler's reply" } };
  if (!route.exact)
    operation["x-switchyard-rest"] =
      "the route takes any further path segments and hands them to its handler, which OpenAPI paths cannot state";
  if (route.guards.length > 0) operation["x-switchyard-guards"] = [...route.guards];
  return operation;
}

function parameterOf(variable: ListedVariable, name: string): OpenApiObject {
  const schema: ParserSchema = variable.parser.openApiSchema ?? { type: "string" };
  const parameter: OpenApiObject = { name, in: "path", required: true, schema: { ...schema } };
  if (name !== variable.label) parameter["x-switchyard-label"] = variable.label;
  parameter["x-switchyard-type"] = variable.type;
  return parameter;
}

/** A query or header input as an OpenAPI parameter (a body is the operation's `requestBody`). */
function inputParameter(input: HandlerInput): OpenApiObject[] {
  if (input.in === "body") return [];
  const schema: ParserSchema = input.parser.openApiSchema ?? { type: "string" };
  return [
    {
      name: input.name,
      in: input.in,
      required: input.required,
      schema: input.array === true ? { type: "array", items: { ...schema } } : { ...schema },
    },
  ];
}

/** `Users.byId`, made unique in the document (`Users.byId_2`); `route3` for an anonymous handler. */
function uniqueId(route: ListedRoute, taken: Set<string>): string {
  const base = route.handler === "(anonymous)" ? `route${route.index + 1}` : route.handler;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

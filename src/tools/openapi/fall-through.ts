import type { ListedRoute } from "../listing.js";
import { type RouterErrors, routerErrorOf } from "./errors.js";
import { sortedByStatus } from "./operation.js";
import { canonical } from "./schemas.js";
import type { OpenApiObject } from "./types.js";

/*
 * Routes that share a path and method (an earlier one passes on what it does not answer: a value its
 * type refuses, a refusing guard, routeMismatch) are one operation in OpenAPI, which has one operation
 * per path and method and no notion of order. The combined operation says what any of them accepts and
 * gives — a path parameter is any of their types, a query value is required only when every route
 * refuses it missing, replies of one status are any of theirs — and its description lists the routes
 * in the order they are tried. Each route's own operation stays under `x-switchyard-fall-through`.
 */

/** A route and its own operation. */
export interface Member {
  readonly route: ListedRoute;
  readonly operation: OpenApiObject;
}

const NOTE =
  "an earlier route has this path and method; this one answers only what the earlier one passes on (routeMismatch, a refusing guard, a value its parser rejects)";

/** One operation for routes tried in order on one path and method (`members`: two or more). */
export function combined(members: readonly Member[], errors: RouterErrors): OpenApiObject {
  const first = members[0]!.operation;
  const operations = members.map((m) => m.operation);
  const operation: OpenApiObject = { operationId: first.operationId };
  operation.summary = members.map(summaryOf).join("; else ");
  operation.description = descriptionOf(members);
  const tags = [...new Set(operations.flatMap((o) => (o.tags as string[] | undefined) ?? []))];
  if (tags.length > 0) operation.tags = tags;
  const parameters = mergedParameters(operations);
  if (parameters.length > 0) operation.parameters = parameters;
  const body = mergedBody(operations);
  if (body !== undefined) operation.requestBody = body;
  operation.responses = mergedResponses(operations, errors);
  if (operations.some((o) => o["x-switchyard-rest"] !== undefined))
    operation["x-switchyard-rest"] = operations.find((o) => o["x-switchyard-rest"] !== undefined)!["x-switchyard-rest"];
  if (first["x-switchyard-guards"] !== undefined) operation["x-switchyard-guards"] = first["x-switchyard-guards"];
  if (first["x-switchyard-path"] !== undefined) operation["x-switchyard-path"] = first["x-switchyard-path"];
  operation["x-switchyard-fall-through"] = operations.slice(1).map((o) => ({ ...o, "x-switchyard-note": NOTE }));
  return operation;
}

/** A later route's own operation listed under an earlier one with the same slot (methods OpenAPI has no field for). */
export function listedUnder(earlier: OpenApiObject, operation: OpenApiObject): void {
  operation["x-switchyard-note"] = NOTE;
  ((earlier["x-switchyard-fall-through"] ??= []) as OpenApiObject[]).push(operation);
}

/** A route's summary, else its operation id. */
function summaryOf(member: Member): string {
  const summary = member.operation.summary;
  return typeof summary === "string" ? summary : String(member.operation.operationId);
}

/** The routes in the order they are tried, and what each passes on. */
function descriptionOf(members: readonly Member[]): string {
  const lines = members.map(({ route, operation }, i) => {
    const written = `${route.method ?? "*"} ${typedPath(route)}`;
    const about = [operation.summary, operation.description].filter((t): t is string => typeof t === "string");
    const passes =
      i === 0
        ? ""
        : ` Answers only what route ${i} passes on: a value route ${i}'s path type refuses, a guard of it refusing, or routeMismatch from its handler.`;
    return `${i + 1}. \`${written}\` (\`${String(operation.operationId)}\`)${about.length > 0 ? `: ${about.join(" — ")}` : ""}.${passes}`;
  });
  return [
    `${members.length} routes share this path and method. They are tried in this order, and the first that answers wins (OpenAPI cannot state an order, so they are one operation here; each route's own operation is under x-switchyard-fall-through):`,
    "",
    ...lines,
  ].join("\n");
}

/** The path with each variable's type (`/api/users/{id:UserId}`), as the route listing shows it. */
function typedPath(route: ListedRoute): string {
  const path = `/${route.segments.map((s) => (typeof s === "string" ? s : `{${s.label}:${s.type}}`)).join("/")}`;
  return route.exact ? path : `${path === "/" ? "" : path}/…`;
}

/** Schemas that differ, once each: one schema as it is, several as `anyOf`. */
function anyOf(schemas: readonly unknown[]): unknown {
  const distinct = new Map(schemas.map((s) => [canonical(s), s]));
  return distinct.size === 1 ? [...distinct.values()][0] : { anyOf: [...distinct.values()] };
}

function mergedParameters(operations: readonly OpenApiObject[]): OpenApiObject[] {
  const byKey = new Map<string, OpenApiObject[]>();
  for (const operation of operations) {
    const path = ((operation.parameters as OpenApiObject[] | undefined) ?? []).filter((p) => p.in === "path");
    for (const [i, p] of path.entries()) pushTo(byKey, `path\u0000${i}`, p);
    for (const p of (operation.parameters as OpenApiObject[] | undefined) ?? [])
      if (p.in !== "path")
        pushTo(byKey, `${String(p.in)}\u0000${p.in === "header" ? String(p.name).toLowerCase() : String(p.name)}`, p);
  }
  return [...byKey.values()].map((variants) => {
    const [first] = variants;
    const parameter: OpenApiObject = { name: first!.name, in: first!.in };
    const everyRoute = variants.length === operations.length;
    // a value some route does not read is any value when that route answers
    parameter.required = everyRoute && variants.every((v) => v.required === true);
    parameter.schema = everyRoute ? anyOf(variants.map((v) => v.schema)) : {};
    const descriptions = variants.map((v) => v.description).filter((d): d is string => typeof d === "string");
    if (first!.in === "path") {
      const types = [...new Set(variants.map((v) => String(v["x-switchyard-type"])))];
      parameter["x-switchyard-type"] = types.join(" | ");
      if (types.length > 1)
        descriptions.push(
          `Read by each route in turn: ${variants.map((v, i) => `route ${i + 1} as ${String(v["x-switchyard-label"] ?? v.name)}:${String(v["x-switchyard-type"])}`).join(", ")}.`,
        );
    } else if (!everyRoute) descriptions.push("Read by some of the routes only: any value when another answers.");
    if (descriptions.length > 0) parameter.description = [...new Set(descriptions)].join(" ");
    return parameter;
  });
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function mergedBody(operations: readonly OpenApiObject[]): OpenApiObject | undefined {
  const bodies = operations.map((o) => o.requestBody as OpenApiObject | undefined);
  const present = bodies.filter((b): b is OpenApiObject => b !== undefined);
  if (present.length === 0) return undefined;
  const byType = new Map<string, unknown[]>();
  for (const body of present)
    for (const [type, media] of Object.entries(body.content as OpenApiObject))
      pushTo(byType, type, (media as OpenApiObject).schema);
  return {
    // a route that reads no body answers without one
    required: present.length === operations.length && present.every((b) => b.required === true),
    content: Object.fromEntries([...byType].map(([type, schemas]) => [type, { schema: anyOf(schemas) }])),
  };
}

function mergedResponses(operations: readonly OpenApiObject[], errors: RouterErrors): OpenApiObject {
  const byStatus = new Map<string, unknown[]>();
  for (const operation of operations)
    for (const [status, response] of Object.entries(operation.responses as OpenApiObject))
      pushTo(byStatus, status, response);
  // a route is reached only when the one before passes on: the last may pass on too
  if (!byStatus.has("404")) byStatus.set("404", [errors.ref("404")]);
  const responses: OpenApiObject = {};
  for (const [status, variants] of byStatus) responses[status] = mergedResponse(variants, errors);
  return sortedByStatus(responses);
}

/**
 * Replies of one status from several routes: the same one once; else the routes' own replies (their
 * descriptions, any of their bodies), joined with the router's when one route leaves that status to it.
 */
function mergedResponse(variants: readonly unknown[], errors: RouterErrors): unknown {
  const distinct = [...new Map(variants.map((v) => [canonical(v), v])).values()];
  if (distinct.length === 1) return distinct[0];
  const own = distinct.filter((v) => routerErrorOf(v) === undefined) as OpenApiObject[];
  const router = distinct.map(routerErrorOf).find((s) => s !== undefined);
  if (own.length === 0) return distinct[0];
  const merged = own.length === 1 ? own[0]! : mergedOwn(own);
  return router === undefined ? merged : errors.joined(merged, router);
}

function mergedOwn(own: readonly OpenApiObject[]): OpenApiObject {
  const content = new Map<string, unknown[]>();
  for (const response of own)
    for (const [type, media] of Object.entries((response.content as OpenApiObject | undefined) ?? {}))
      pushTo(content, type, (media as OpenApiObject).schema);
  const merged: OpenApiObject = {
    description: [...new Set(own.map((r) => String(r.description)))].join("; else "),
  };
  if (content.size > 0)
    merged.content = Object.fromEntries([...content].map(([type, schemas]) => [type, { schema: anyOf(schemas) }]));
  return merged;
}

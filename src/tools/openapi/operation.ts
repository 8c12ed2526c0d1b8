import { statusText } from "../../errors.js";
import { factOf } from "../../parsers/facts.js";
import type { PathParser } from "../../parsers/parser.js";
import type { HandlerInput, JsonSchemaObject, JsonSchemaSource, ResponseInfo } from "../../tree.js";
import type { ListedRoute, ListedVariable } from "../listing.js";
import { type RouteFacts, type RouterError, type RouterErrors, routerErrors } from "./errors.js";
import type { Components } from "./schemas.js";
import type { OpenApiObject } from "./types.js";

/*
 * One route as one OpenAPI operation: its parameters (path variables with their parsers' schemas;
 * query, header and cookie values `required` exactly when the route refuses them missing), its request
 * body, the replies its info declares (a `schema` read as JSON Schema), and the router's error replies
 * it can give (shared components).
 */

/** An operation, and what the router's errors for it depend on. */
export interface BuiltOperation {
  readonly operation: OpenApiObject;
  readonly facts: RouteFacts;
}

/** What building an operation needs of its document. */
export interface DocumentParts {
  readonly components: Components;
  readonly errors: RouterErrors;
}

/** `route`'s operation; `names` are the path's parameter names (those of the first route on its path shape). */
export function operationOf(
  route: ListedRoute,
  names: readonly string[],
  operationId: string,
  document: DocumentParts,
): BuiltOperation {
  const { components } = document;
  const info = route.info;
  const operation: OpenApiObject = { operationId };
  if (info?.summary !== undefined) operation.summary = info.summary;
  if (info?.description !== undefined) operation.description = info.description;
  if (info?.tags !== undefined) operation.tags = [...info.tags];
  const inputs = info?.inputs ?? [];
  const parameters = [
    ...route.variables.map((v, i) => pathParameter(v, names[i]!, components)),
    ...inputs.flatMap((input) =>
      input.in === "body" || input.in === "formField" || input.in === "formFile" || input.in === "formObject"
        ? []
        : input.in === "queryObject"
          ? queryObjectParameters(input.schema, components)
          : [valueParameter(input, components)],
    ),
  ];
  if (parameters.length > 0) operation.parameters = parameters;
  const body = inputs.find((input) => input.in === "body");
  if (body !== undefined && body.in === "body") operation.requestBody = requestBody(body, components);
  const form = inputs.filter((input): input is FormInput => input.in === "formField" || input.in === "formFile");
  if (body === undefined && form.length > 0) operation.requestBody = formBody(form, components);
  const formObject = inputs.find((input) => input.in === "formObject");
  if (body === undefined && form.length === 0 && formObject?.in === "formObject")
    operation.requestBody = formObjectBody(formObject.schema, components);
  const facts: RouteFacts = {
    readsValues: inputs.some((input) => input.in !== "body"),
    readsBody: body !== undefined || form.length > 0 || formObject !== undefined,
    mayPassOn: route.variables.length > 0 || route.guards.length > 0,
  };
  operation.responses = responsesOf(info?.responses, facts, document);
  if (!route.exact)
    operation["x-switchyard-rest"] =
      "the route takes any further path segments and hands them to its handler, which OpenAPI paths cannot state";
  if (route.guards.length > 0) operation["x-switchyard-guards"] = [...route.guards];
  return { operation, facts };
}

/**
 * The replies: the declared ones (`default`, "the handler's reply", when none is), and each router
 * error the route can give — a reference to the shared component, or joined with the route's own reply
 * of that status.
 */
export function responsesOf(
  declared: Readonly<Record<string, ResponseInfo>> | undefined,
  facts: RouteFacts,
  { components, errors }: DocumentParts,
): OpenApiObject {
  const responses: OpenApiObject = {};
  for (const [status, response] of Object.entries(declared ?? {}))
    responses[status] = responseOf(status, response, components);
  if (declared === undefined) responses.default = { description: "the handler's reply" };
  for (const status of routerErrors(facts)) {
    const own = responses[status] as OpenApiObject | undefined;
    responses[status] = own === undefined ? errors.ref(status) : errors.joined(own, status as RouterError);
  }
  return sortedByStatus(responses);
}

/** A declared reply as an OpenAPI response object: `schema` becomes `content`, a missing description the status's phrase. */
function responseOf(status: string, response: ResponseInfo, components: Components): OpenApiObject {
  if (typeof response !== "object" || response === null) return { description: String(response) };
  const { schema, contentType, description, ...rest } = response;
  const out: OpenApiObject = { description: description ?? descriptionOf(status), ...rest };
  if (schema !== undefined) {
    const read = components.schemaOf(schema, "output");
    out.content = {
      ...((rest.content as OpenApiObject | undefined) ?? {}),
      [contentType ?? "application/json"]: { schema: read.schema },
    };
    if (read.note !== undefined) out["x-switchyard-note"] = read.note;
  }
  return out;
}

function descriptionOf(status: string): string {
  const code = Number(status);
  return Number.isInteger(code) && code >= 100 && code <= 599 ? statusText(code) : "the handler's reply";
}

/** Responses in the order readers expect: by status, `default` last. */
export function sortedByStatus(responses: OpenApiObject): OpenApiObject {
  const rank = (status: string) => (status === "default" ? "9" : status);
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => rank(a).localeCompare(rank(b))));
}

function pathParameter(variable: ListedVariable, name: string, components: Components): OpenApiObject {
  const parameter: OpenApiObject = {
    name,
    in: "path",
    required: true,
    schema: parserSchema(variable.parser, components),
  };
  if (name !== variable.label) parameter["x-switchyard-label"] = variable.label;
  parameter["x-switchyard-type"] = variable.type;
  return parameter;
}

/** A parser's schema (a string when it gives none), read like any schema (its `$defs` become components). */
function parserSchema(parser: PathParser<unknown> | undefined, components: Components): JsonSchemaObject {
  const schema = parser === undefined ? undefined : factOf(parser, "openApiSchema");
  return schema === undefined ? { type: "string" } : components.schemaOf(schema, "input").schema;
}

/**
 * The whole query read as one object: each property of its schema a query parameter, `required` as the
 * schema says; a schema without properties (a union, a record) is one parameter whose keys are the
 * query's (`style: form`, `explode: true`).
 */
function queryObjectParameters(source: unknown, components: Components): OpenApiObject[] {
  const read = components.schemaOf(source, "input");
  const schema = components.resolved(read.schema);
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    const parameter: OpenApiObject = { name: "query", in: "query", style: "form", explode: true, schema: read.schema };
    if (read.note !== undefined) parameter["x-switchyard-note"] = read.note;
    return [parameter];
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  return Object.entries(properties as Record<string, JsonSchemaObject>).map(([name, property]) => {
    const parameter: OpenApiObject = { name, in: "query", required: required.has(name), schema: property };
    if (typeof property.description === "string") parameter.description = property.description;
    return parameter;
  });
}

/** A query, header or cookie input as a parameter. */
function valueParameter(
  input: Extract<HandlerInput, { in: "query" | "header" | "cookie" }>,
  components: Components,
): OpenApiObject {
  const parameter: OpenApiObject = { name: input.name, in: input.in, required: input.required };
  if (input.description !== undefined) parameter.description = input.description;
  if (input.schema !== undefined) {
    const read = components.schemaOf(input.schema, "input");
    parameter.schema = read.schema;
    if (read.note !== undefined) parameter["x-switchyard-note"] = read.note;
  } else {
    const schema = parserSchema(input.parser, components);
    parameter.schema = input.array === true ? { type: "array", items: schema } : schema;
  }
  return parameter;
}

type FormInput = Extract<HandlerInput, { in: "formField" | "formFile" }>;

/**
 * A form's fields and files as one request body: `multipart/form-data` (and, when it has no file,
 * `application/x-www-form-urlencoded` too), a property per field (its parser's schema) and per file.
 */
function formBody(inputs: readonly FormInput[], components: Components): OpenApiObject {
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const input of inputs) {
    const one: JsonSchemaObject =
      input.in === "formFile"
        ? { type: "string", contentMediaType: "application/octet-stream" }
        : input.schema !== undefined
          ? components.schemaOf(input.schema, "input").schema
          : parserSchema(input.parser, components);
    // a name read as @File and @Files both: the array says more
    if (input.in === "formField" || input.array === true || properties[input.name] === undefined)
      properties[input.name] = input.in === "formFile" && input.array === true ? { type: "array", items: one } : one;
    if (input.required && !required.includes(input.name)) required.push(input.name);
  }
  const schema: JsonSchemaObject = { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
  return formContent(
    schema,
    inputs.some((input) => input.in === "formFile"),
  );
}

/**
 * The whole form read as one object (`formObject`, `@Form`): its schema's JSON Schema (the values a
 * request sends) as the body of both form media types — a file property is one the schema's library
 * writes as binary (`z.file()`: `format: "binary"`), and a schema that says nothing of files could
 * be sent urlencoded too. A schema without JSON Schema is any object, with the note saying so.
 */
function formObjectBody(source: JsonSchemaSource, components: Components): OpenApiObject {
  const read = components.schemaOf(source, "input");
  const body = formContent(read.schema, hasBinary(components.resolved(read.schema), components));
  if (read.note !== undefined) body["x-switchyard-note"] = read.note;
  return body;
}

/** A form body of `schema`: `multipart/form-data`, and urlencoded too when it holds no file. */
function formContent(schema: JsonSchemaObject, files: boolean): OpenApiObject {
  const content: OpenApiObject = { "multipart/form-data": { schema } };
  if (!files) content["application/x-www-form-urlencoded"] = { schema: structuredClone(schema) };
  return { required: true, content };
}

/** Whether a form schema's properties (or their array items) include binary content: a file. */
function hasBinary(schema: JsonSchemaObject, components: Components): boolean {
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return false;
  return Object.values(properties as Record<string, JsonSchemaObject>).some((property) => {
    const one = components.resolved(property);
    const items =
      typeof one.items === "object" && one.items !== null ? components.resolved(one.items as JsonSchemaObject) : {};
    return [one, items].some(
      (s) => s.format === "binary" || s.contentMediaType !== undefined || s.contentEncoding === "binary",
    );
  });
}

function requestBody(input: Extract<HandlerInput, { in: "body" }>, components: Components): OpenApiObject {
  let schema: JsonSchemaObject;
  let note: string | undefined;
  if (input.schema !== undefined) {
    const read = components.schemaOf(input.schema, "input", input.type);
    schema = read.schema;
    note = read.note;
  } else schema = input.type === undefined ? {} : { "x-switchyard-type": input.type };
  const body: OpenApiObject = {
    required: input.required ?? true,
    content: { [input.contentType ?? "application/json"]: { schema } },
  };
  if (note !== undefined) body["x-switchyard-note"] = note;
  return body;
}

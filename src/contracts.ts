import { stringifyJson } from "./json.js";
import { isStandardSchema, type StandardSchema } from "./schema/standard.js";
import { fieldErrorsOfIssues } from "./schema/issues.js";
import { isRouteMismatch, type Reply, reply, toReply, type HandlerResult } from "./reply.js";
import type { RoutedRequest } from "./request.js";
import { isThenable } from "./thenable.js";
import type { Handler, HandlerInfo, HandlerNode, ResponseInfo, Route, RouteNode } from "./tree.js";
import { dtoToPlain, registeredDtoValidator } from "./validate/dto.js";
import { fieldErrorsOf } from "./validate/field-errors.js";

/*
 * Response contracts (issue 24): a handler leaf whose `info.responses` declares a schema for a status
 * may have its JSON replies of that status checked (`"check"`) or cut down to the declared fields
 * (`"strip"`) at run time. The pipeline rewrites the tree once, before the dispatcher is built: a leaf
 * under a contract gets a wrapped handler, every other node stays as it is. Both dispatchers (and any
 * `dispatcher` option) get the same rewritten tree, so they agree, and a route without a contract runs
 * exactly the handler it had (it pays nothing).
 */

/** What a contract does to a JSON reply whose status has a declared schema. */
export type ContractMode = "strip" | "check";

/** A reply that broke its route's contract: a 500 told to `onError`, never sent. */
export class ContractError extends Error {
  override readonly name = "ContractError";
  constructor(
    /** The route, in pattern form (`GET /users/id:Int`), and the handler's name when it has one. */
    readonly route: string,
    readonly status: number,
    /** The failing fields (`""` for the reply as a whole), each with what failed. */
    readonly fields: readonly { readonly field: string; readonly message: string }[],
  ) {
    super(
      `${route} replied ${status} against its contract: ` +
        (fields.length === 0
          ? "the body is invalid"
          : fields.map((f) => `${f.field === "" ? "(body)" : f.field}: ${f.message}`).join("; ")),
    );
  }
}

/**
 * `tree` with every handler leaf under a contract wrapped: the leaf's own `info.contract`, else `mode`
 * (the app's; `"off"` or `undefined`: none). The very tree when no leaf is under one.
 */
export function withContracts(tree: Route, mode: ContractMode | "off" | undefined): Route {
  if (mode !== undefined && mode !== "off" && mode !== "strip" && mode !== "check")
    throw new TypeError(`contracts must be "strip", "check" or "off", got ${JSON.stringify(mode)}`);
  const done = new Map<RouteNode, RouteNode>();
  const walk = (node: RouteNode): RouteNode => {
    let out = done.get(node);
    if (out !== undefined) return out;
    out = rewrite(node, mode === "off" ? undefined : mode, walk);
    done.set(node, out);
    return out;
  };
  return walk(tree as RouteNode) as Route;
}

function rewrite(node: RouteNode, mode: ContractMode | undefined, walk: (n: RouteNode) => RouteNode): RouteNode {
  if (node.kind === "handler") return contracted(node, mode);
  if (node.kind === "alt") {
    const alternatives = node.alternatives.map(walk);
    return alternatives.every((a, i) => a === node.alternatives[i]) ? node : Object.freeze({ ...node, alternatives });
  }
  const next = walk(node.next);
  return next === node.next ? node : (Object.freeze({ ...node, next }) as RouteNode);
}

/** A schema a contract can run: a Standard Schema, a DTO class, or a list of either (`[Dto]`). */
type Runnable = StandardSchema | Function | readonly [Runnable];

function runnable(schema: unknown): schema is Runnable {
  if (isStandardSchema(schema) || typeof schema === "function") return true;
  return Array.isArray(schema) && schema.length === 1 && runnable(schema[0]);
}

function contracted(node: HandlerNode, mode: ContractMode | undefined): HandlerNode {
  const info = node.info;
  const chosen = info?.contract ?? mode;
  if (chosen === undefined || chosen === "off" || info?.responses === undefined) return node;
  if (chosen !== "strip" && chosen !== "check")
    throw new TypeError(`a route's contract must be "strip", "check" or "off", got ${JSON.stringify(chosen)}`);
  const responses = info.responses;
  // a JSON Schema object documents a reply but cannot check one: only runnable schemas count
  const declared = Object.keys(responses).filter((status) => runnable((responses[status] as ResponseInfo).schema));
  if (declared.length === 0) return node;
  const handler = node.handler as Handler<{}>;
  const enforce = (result: HandlerResult, request: RoutedRequest<{}>) =>
    enforced(result, request, responses, chosen, info);
  const wrapped: Handler<{}> = (request) => {
    const result = handler(request);
    return isThenable(result)
      ? Promise.resolve(result).then((value) => enforce(value as HandlerResult, request))
      : enforce(result as HandlerResult, request);
  };
  return Object.freeze({ ...node, handler: wrapped as Handler<never> });
}

function responseFor(responses: Readonly<Record<string, ResponseInfo>>, status: number): ResponseInfo | undefined {
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`];
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly fields: Field[] };
type Field = { field: string; message: string };

function enforced(
  result: HandlerResult,
  request: RoutedRequest<{}>,
  responses: Readonly<Record<string, ResponseInfo>>,
  mode: ContractMode,
  info: HandlerInfo,
): Reply | Promise<Reply> | HandlerResult {
  const answer = toReply(result);
  if (isRouteMismatch(answer)) return answer;
  const schema = responseFor(responses, answer.status)?.schema;
  if (!runnable(schema)) return answer;
  const type = answer.headers["content-type"];
  if (typeof answer.body !== "string" || typeof type !== "string" || !JSON_TYPE.test(type)) return answer;
  const value: unknown = JSON.parse(answer.body);
  const settle = (checked: Checked): Reply => {
    if (!checked.ok) throw new ContractError(routeName(request, info), answer.status, checked.fields);
    if (mode === "check") return answer;
    return reply({ status: answer.status, headers: answer.headers, body: stringifyJson(checked.value) });
  };
  const checked = run(schema, value, "", mode);
  return isThenable(checked) ? Promise.resolve(checked).then(settle) : settle(checked);
}

function routeName(request: RoutedRequest<{}>, info: HandlerInfo): string {
  const pattern = request.route?.pattern ?? "(route)";
  return info.name === undefined ? pattern : `${pattern} (${info.name})`;
}

function run(schema: Runnable, value: unknown, at: string, mode: ContractMode): Checked | Promise<Checked> {
  if (Array.isArray(schema)) {
    if (!Array.isArray(value)) return { ok: false, fields: [{ field: at, message: "expected an array" }] };
    const each = value.map((item, i) => run(schema[0] as Runnable, item, at === "" ? String(i) : `${at}.${i}`, mode));
    const gather = (all: readonly Checked[]): Checked => {
      const fields = all.flatMap((c) => (c.ok ? [] : c.fields));
      return fields.length > 0
        ? { ok: false, fields }
        : { ok: true, value: all.map((c) => (c as { value: unknown }).value) };
    };
    return each.some(isThenable) ? Promise.all(each).then(gather) : gather(each as Checked[]);
  }
  if (isStandardSchema(schema)) {
    const outcome = schema["~standard"].validate(value);
    const read = (r: Awaited<typeof outcome>): Checked =>
      r.issues === undefined
        ? { ok: true, value: r.value }
        : {
            ok: false,
            fields: fieldErrorsOfIssues("body", at, r.issues).map(({ field, message }) => ({ field, message })),
          };
    return isThenable(outcome) ? Promise.resolve(outcome).then(read) : read(outcome);
  }
  return dtoChecked(schema as Function, value, at, mode);
}

async function dtoChecked(type: Function, value: unknown, at: string, mode: ContractMode): Promise<Checked> {
  const validator = registeredDtoValidator(type);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, fields: [{ field: at, message: "expected a JSON object" }] };
  try {
    // strip: the properties without class-validator decorators are removed (class-validator's whitelist)
    const instance = await validator.validate(type, value, "body", { whitelist: mode === "strip" });
    return { ok: true, value: dtoToPlain(instance) };
  } catch (error) {
    const fields = fieldErrorsOf(error);
    if (fields === undefined) throw error;
    return {
      ok: false,
      fields: fields.map((f) => ({
        field: [at, f.field].filter((s) => s !== "").join("."),
        message: f.message,
      })),
    };
  }
}

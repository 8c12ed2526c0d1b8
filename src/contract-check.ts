import { stringifyJson } from "./json.js";
import { type Runnable, runnable } from "./contract-schema.js";
import { isStandardSchema } from "./schema/standard.js";
import { fieldErrorsOfIssues } from "./schema/issues.js";
import { isRouteMismatch, type Reply, reply, toReply, type HandlerResult } from "./reply.js";
import type { RoutedRequest } from "./request.js";
import { isThenable } from "./thenable.js";
import { dtoToPlain, registeredDtoValidator } from "./validate/dto.js";
import { fieldErrorsOf } from "./validate/field-errors.js";

/*
 * Running a response contract (see `contracts.ts`): a leaf's JSON replies checked against, or cut down
 * to, the Standard Schema or DTO class its `responses` declare for their status. What declares
 * `responses` (`described`) marks its leaf with `withContractCheck`; the pipeline's walk finds the
 * wrapping through that mark, so an app that declares no `responses` does not carry this file. It
 * imports nothing of `tree.ts`, which imports it.
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

/** One declared reply: its schema (see `ResponseInfo` in `tree.ts`). */
interface DeclaredResponse {
  readonly schema?: unknown;
}

/** The part of a handler leaf (`HandlerNode`) a contract reads and wraps. */
export interface ContractLeaf {
  readonly handler: (request: never) => unknown;
  readonly info?: {
    readonly name?: string;
    readonly responses?: Readonly<Record<string, DeclaredResponse>>;
  };
}

/** Wraps a leaf's handler under its contract, in `mode`. */
export type ContractWrapper = (node: ContractLeaf, mode: ContractMode) => ContractLeaf;

// a leaf's wrapping is looked up, not called by name, so the pipeline's walk reaches none of it
const wrappers = new WeakMap<object, ContractWrapper>();

/** How `node`'s contract runs: set by {@link withContractCheck}, else `undefined`. */
export function contractWrapper(node: object): ContractWrapper | undefined {
  return wrappers.get(node);
}

/** `node`, its `responses` checkable when the pipeline puts it under a contract (`described` calls it). */
export function withContractCheck<N extends ContractLeaf>(node: N): N {
  wrappers.set(node, contracted);
  return node;
}

function contracted(node: ContractLeaf, chosen: ContractMode): ContractLeaf {
  const info = node.info as NonNullable<ContractLeaf["info"]>;
  const responses = info.responses as Readonly<Record<string, DeclaredResponse>>;
  // a JSON Schema object documents a reply but cannot check one: only runnable schemas count
  if (!Object.values(responses).some((response) => runnable(response.schema))) return node;
  const handler = node.handler as (request: RoutedRequest<{}>) => unknown;
  const enforce = (result: HandlerResult, request: RoutedRequest<{}>) =>
    enforced(result, request, responses, chosen, info.name);
  const wrapped = (request: RoutedRequest<{}>) => {
    const result = handler(request);
    return isThenable(result)
      ? Promise.resolve(result).then((value) => enforce(value as HandlerResult, request))
      : enforce(result as HandlerResult, request);
  };
  return Object.freeze({ ...node, handler: wrapped });
}

function responseFor(
  responses: Readonly<Record<string, DeclaredResponse>>,
  status: number,
): DeclaredResponse | undefined {
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`];
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly fields: Field[] };
type Field = { field: string; message: string };

function enforced(
  result: HandlerResult,
  request: RoutedRequest<{}>,
  responses: Readonly<Record<string, DeclaredResponse>>,
  mode: ContractMode,
  name: string | undefined,
): Reply | Promise<Reply> | HandlerResult {
  const answer = toReply(result);
  if (isRouteMismatch(answer)) return answer;
  const schema = responseFor(responses, answer.status)?.schema;
  if (!runnable(schema)) return answer;
  const type = answer.headers["content-type"];
  if (typeof answer.body !== "string" || typeof type !== "string" || !JSON_TYPE.test(type)) return answer;
  const value: unknown = JSON.parse(answer.body);
  const settle = (checked: Checked): Reply => {
    if (!checked.ok) throw new ContractError(routeName(request, name), answer.status, checked.fields);
    if (mode === "check") return answer;
    return reply({ status: answer.status, headers: answer.headers, body: stringifyJson(checked.value) });
  };
  const checked = run(schema, value, "", mode);
  return isThenable(checked) ? Promise.resolve(checked).then(settle) : settle(checked);
}

function routeName(request: RoutedRequest<{}>, name: string | undefined): string {
  const pattern = request.route?.pattern ?? "(route)";
  return name === undefined ? pattern : `${pattern} (${name})`;
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

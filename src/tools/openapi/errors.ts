import type { Components } from "./schemas.js";
import type { OpenApiObject } from "./types.js";

/*
 * The error replies the router itself gives, as shared components: a 400 listing each failing field
 * (query, header and cookie values, the body), the empty 404 when no route answers, a 413 for a body
 * over the limit, a 415 for a body of a media type the route does not read. An operation refers to the
 * ones its route can give (`routerErrors`); a reply the route declares for one of those statuses is
 * joined with the router's (`RouterErrors.joined`).
 */

/** A status the router answers by itself. */
export type RouterError = "400" | "404" | "413" | "415";

/** What a route's tests and info tell about the errors it can give. */
export interface RouteFacts {
  /** It reads query, header or cookie values (a missing or invalid one is a 400). */
  readonly readsValues: boolean;
  /** It reads a body (invalid: 400; too large: 413; of another media type: 415). */
  readonly readsBody: boolean;
  /**
   * A request on its path may get no answer from it — a path type refusing the segment, a guard
   * refusing — and so may end in the 404.
   */
  readonly mayPassOn: boolean;
}

const ORDER: readonly RouterError[] = ["400", "404", "413", "415"];

const NAMES: Readonly<Record<RouterError, string>> = {
  "400": "BadRequest",
  "404": "NotFound",
  "413": "ContentTooLarge",
  "415": "UnsupportedMediaType",
};

/** When the router gives each error, as a clause (the response's description, and the part joined to a route's own). */
const WHEN: Readonly<Record<RouterError, string>> = {
  "400":
    "a query parameter, header, cookie or the body is missing or invalid: `error` says what, `errors` lists each failing field",
  "404":
    "no route answered, with an empty body: a path segment the route's type refuses, a guard that refuses, or a handler that passed the request on (routeMismatch) with no later route to answer it",
  "413": "the body is larger than the body limit",
  "415": "the body's Content-Type is not one the route reads (for a JSON body: application/json, text/plain or none)",
};

const TITLES: Readonly<Record<RouterError, string>> = {
  "400": "Bad Request",
  "404": "Not Found",
  "413": "Content Too Large",
  "415": "Unsupported Media Type",
};

/** The statuses the router may answer for a route, in order. */
export function routerErrors(facts: RouteFacts): RouterError[] {
  const errors: RouterError[] = [];
  if (facts.readsValues || facts.readsBody) errors.push("400");
  if (facts.mayPassOn) errors.push("404");
  if (facts.readsBody) errors.push("413", "415");
  return errors;
}

/** The status a response reference names, when it is one of the router's components. */
export function routerErrorOf(response: unknown): RouterError | undefined {
  const ref = (response as { $ref?: unknown } | null)?.$ref;
  return typeof ref === "string" ? ORDER.find((s) => ref === `#/components/responses/${NAMES[s]}`) : undefined;
}

/** The router's error replies of one document: the ones its operations use, and their components. */
export class RouterErrors {
  private readonly used = new Set<RouterError>();

  constructor(private readonly components: Components) {}

  /** The response of an operation for a router error: a reference to the shared component. */
  ref(status: RouterError): OpenApiObject {
    this.used.add(status);
    return { $ref: `#/components/responses/${NAMES[status]}` };
  }

  /**
   * A reply a route declares for a status the router answers too, joined with the router's: both
   * descriptions, and for a JSON body either schema. (The router's 404 has no body: an empty reply has
   * no media type, so the route's declared body still describes its own.)
   */
  joined(declared: OpenApiObject, status: RouterError): OpenApiObject {
    if (String(declared.description).endsWith(WHEN[status])) return declared; // joined already
    const router = this.response(status);
    const joined: OpenApiObject = { ...declared, description: `${String(declared.description)}; or ${WHEN[status]}` };
    const routerContent = router.content as Record<string, { schema: unknown }> | undefined;
    const content = declared.content as Record<string, { schema?: unknown }> | undefined;
    if (routerContent !== undefined && content !== undefined) {
      const both: OpenApiObject = { ...content };
      for (const [type, media] of Object.entries(routerContent)) {
        const own = content[type];
        both[type] = own?.schema === undefined ? media : { ...own, schema: { anyOf: [own.schema, media.schema] } };
      }
      joined.content = both;
    }
    return joined;
  }

  /** `components.responses` for the errors used (their schemas go into the components' schemas). */
  responses(): OpenApiObject {
    const responses: OpenApiObject = {};
    for (const status of ORDER) if (this.used.has(status)) responses[NAMES[status]] = this.response(status);
    return responses;
  }

  /** The response object of a router error. */
  private response(status: RouterError): OpenApiObject {
    const description = `${TITLES[status]}: ${WHEN[status]}.`;
    switch (status) {
      case "400":
        return { description, content: { "application/json": { schema: this.validationError() } } };
      case "404":
        return { description };
      case "413":
      case "415":
        return { description, content: { "application/json": { schema: this.error() } } };
    }
  }

  /** A schema of the router's, as a component (a variant of its name when the app has taken it). */
  private schema(name: string, body: OpenApiObject): OpenApiObject {
    const claimed = this.components.claim(name, `switchyard-router:${name}`);
    if (claimed.fresh) this.components.schemas[claimed.name] = body;
    return this.components.ref(claimed.name);
  }

  private error(): OpenApiObject {
    return this.schema("Error", {
      type: "object",
      description: "An error reply: `error` says what went wrong.",
      properties: { error: { type: "string", description: "What went wrong, in a sentence." } },
      required: ["error"],
    });
  }

  private validationError(): OpenApiObject {
    const field = this.schema("FieldError", {
      type: "object",
      description: "One failing field of a 400.",
      properties: {
        in: { enum: ["query", "header", "cookie", "body"], description: "Where the field is." },
        field: {
          type: "string",
          description:
            'The query parameter, header or cookie name, or the path of the failing value in it (`address.city`, `items.0.qty`); `""` for the body as a whole.',
        },
        constraint: {
          type: "string",
          description:
            "What it fails: `required`, a path type (`Int`), a class-validator constraint (`isEmail`) or a schema library's code for the issue.",
        },
        message: { type: "string", description: "The failure, in words." },
      },
      required: ["in", "field", "constraint", "message"],
    });
    return this.schema("ValidationError", {
      type: "object",
      description: "A 400: `error` says what is wrong, `errors` lists every failing field and constraint.",
      properties: {
        error: { type: "string", description: "What is wrong, in a sentence." },
        errors: { type: "array", items: field },
      },
      required: ["error", "errors"],
    });
  }
}

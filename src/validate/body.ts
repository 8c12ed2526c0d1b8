import type { RoutedRequest } from "../request.js";
import { isStandardSchema, type SchemaOutput, type StandardSchema } from "../schema/standard.js";
import { validate } from "../schema/validate.js";
import { type DtoClass, type DtoOptions, dtoValidatorFor, validateDtoWith } from "./dto.js";
import { DEFAULT_MAX_DEPTH, jsonBodyThen } from "./json-body.js";

/** Options of {@link body}. */
export interface BodyOptions extends DtoOptions {
  /** How deep objects and arrays may nest (the body itself is level 1); deeper is a 400. Default 64. */
  readonly maxDepth?: number;
}

/**
 * The request's JSON body (read within the body limit: over it, a 413), validated: with a Standard
 * Schema (zod, valibot, arktype, …), its output; with a class-validator DTO class, an instance of it
 * (class-transformer builds it, nested classes through `@Type`; needs `switchyard-router/decorators`
 * loaded). Malformed JSON or a failing value is a 400 listing every failing field with its path
 * (`address.city`, `lines.1.qty`) and constraint, whichever validator found it:
 * ```ts
 * const CreateUser = z.object({ name: z.string().min(1), email: z.email() });
 * route("POST /users", async (req) => store.add(await body(req, CreateUser)))
 * ```
 * A schema decides what a body may be (an array too: `z.array(Item)`); a DTO class reads a JSON object
 * only. Asynchronous schemas and class-validator constraints are awaited. `req.json<T>()` is the
 * unchecked read: its `T` is a cast, nothing is validated.
 */
export function body<S extends StandardSchema>(
  request: RoutedRequest<object>,
  schema: S,
  options?: BodyOptions,
): Promise<SchemaOutput<S>>;
export function body<T extends object>(
  request: RoutedRequest<object>,
  type: DtoClass<T>,
  options?: BodyOptions,
): Promise<T>;
export function body(
  request: RoutedRequest<object>,
  validator: StandardSchema | DtoClass,
  options: BodyOptions = {},
): Promise<unknown> {
  // chained with `then` (no `async`): a failure is the rejection it already is, not thrown once more per level
  try {
    const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    if (isStandardSchema(validator))
      return jsonBodyThen(request, maxDepth, (plain) => validate(validator, plain, "body", "", "the body is invalid"));
    if (typeof validator !== "function") {
      throw new TypeError(
        `body(): expected a Standard Schema (zod, valibot, arktype, …) or a class-validator DTO class, got ${validator === null ? "null" : typeof validator}`,
      );
    }
    const dto = dtoValidatorFor("body()", validator); // before the body is read: the app's mistake, not the client's
    return jsonBodyThen(request, maxDepth, (plain) => validateDtoWith(dto, validator, plain, "body", options));
  } catch (error) {
    return Promise.reject(error);
  }
}

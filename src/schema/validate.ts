import { badRequest, type FieldError } from "../validate/field-errors.js";
import { type NamedSource, sourceIn, sourceNamed } from "../value-names.js";
import { isThenable } from "../thenable.js";
import { fieldErrorsOfIssues } from "./issues.js";
import type { StandardResult, StandardSchema } from "./standard.js";

/*
 * Running a Standard Schema on a value a request sent: its output, or the one 400 listing every issue
 * under the field the value was read as. Asynchronous schemas are awaited; a synchronous one's result
 * is read at once (`validate`), with no promise or tick for it.
 */

/**
 * `schema`'s output for `value`, or a 400 (`message`) listing each issue with its path under `field`
 * (`in`: `where`): thrown, or for an asynchronous schema the promise's rejection (await it all the same).
 * A schema that throws (rather than reporting issues) is the app's fault: its error is thrown as it is,
 * a 500.
 */
export function validate<O>(
  schema: StandardSchema<unknown, O>,
  value: unknown,
  where: FieldError["in"],
  field: string,
  message: string,
): O | Promise<O> {
  const result = schema["~standard"].validate(value);
  const read = (settled: StandardResult<O>): O => {
    if (settled.issues === undefined) return settled.value;
    throw badRequest(message, fieldErrorsOfIssues(where, field, settled.issues));
  };
  return isThenable(result) ? Promise.resolve(result).then(read) : read(result);
}

/**
 * A named value (a query parameter, a header, a cookie, a form field) through `schema`. `raw` is what was sent
 * (a string, or for a repeated query key the array of its values); `undefined` when nothing was:
 * then `undefined` if `optional`, else the schema decides — its output for `undefined` (a default, an
 * optional schema), or, when it refuses `undefined`, the 400 saying the value is `required`.
 */
export async function validateValue<O>(
  where: NamedSource,
  name: string,
  schema: StandardSchema<unknown, O>,
  raw: string | readonly string[] | undefined,
  optional: boolean,
): Promise<O | undefined> {
  if (raw === undefined) {
    if (optional) return undefined;
    const result: StandardResult<O> = await schema["~standard"].validate(undefined);
    if (result.issues === undefined) return result.value;
    const message = `${sourceNamed(where, name)} is required`;
    throw badRequest(message, [{ in: sourceIn(where), field: name, constraint: "required", message }]);
  }
  return validate(schema, raw, sourceIn(where), name, `${sourceNamed(where, name)} is invalid`);
}

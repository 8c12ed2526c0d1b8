import { signedCookieParam } from "../src/cookies/read.js";
import { formField, formFile, formFiles } from "../src/forms/fields.js";
import { formObject } from "../src/forms/object.js";
import { cookieParam, headerParam, queryParam, queryParams, type ParamReader } from "../src/params.js";
import { Text } from "../src/parsers/text.js";
import type { RoutedRequest } from "../src/request.js";
import type { StandardSchema } from "../src/schema/standard.js";
import { validateValue } from "../src/schema/validate.js";
import type { CookieSigner } from "../src/cookies/sign.js";
import { queryObject } from "../src/validate/query.js";
import { body } from "./body.js";
import type { ArgSource } from "./plan.js";

/** Reads one parameter's value from the request (a promise for a body, a schema or a signed cookie). */
export type ArgReader = ParamReader<unknown, RoutedRequest>;

/**
 * True when the parameter's reader gives a promise (a body, the whole query, a value read with a
 * Standard Schema, a signed cookie): its handler awaits it.
 */
export function waitsFor(source: ArgSource | undefined): boolean {
  switch (source?.kind) {
    case "body":
    case "bodySchema":
    case "queryObject":
    case "formObject":
    case "formField":
    case "file":
    case "files":
      return true;
    case "query":
    case "header":
      return source.schema !== undefined;
    case "cookie":
      return source.schema !== undefined || source.signed !== undefined;
    default:
      return false;
  }
}

/**
 * How a decorated parameter is filled: each source through its functional counterpart, so the
 * decorator and functional forms share one implementation.
 */
export function argReader(source: ArgSource): ArgReader {
  switch (source.kind) {
    case "pathVar": {
      const { label } = source;
      return (request) => request.vars[label];
    }
    case "request":
      return (request) => request;
    case "query": {
      const { name, parser, optional, array, schema } = source;
      const type = schema ?? parser;
      return array
        ? (request) => queryParams(request, name, type as typeof parser)
        : (request) => queryParam(request, name, type as typeof parser, { optional });
    }
    case "header": {
      const { name, parser, optional, schema } = source;
      const type = schema ?? parser;
      return (request) => headerParam(request, name, type as typeof parser, { optional });
    }
    case "cookie": {
      const { name, parser, optional, signed, schema } = source;
      if (signed !== undefined && schema !== undefined) return signedSchemaCookie(name, signed, schema, optional);
      const type = schema ?? parser;
      return signed === undefined
        ? (request) => cookieParam(request, name, type as typeof parser, { optional })
        : (request) => signedCookieParam(request, name, signed, parser, { optional });
    }
    case "body": {
      const { type, options } = source;
      return (request) => body(request, type, options);
    }
    case "bodySchema": {
      const { schema, options } = source;
      return (request) => body(request, schema, options);
    }
    case "queryObject": {
      const { validator, options } = source;
      return (request) => queryObject(request, validator as StandardSchema, options);
    }
    // every form parameter awaits the same `req.form()`: the request reads the form once and keeps it
    case "formField": {
      const { name, parser, optional, schema } = source;
      const type = schema ?? parser;
      return async (request) => formField(await request.form(), name, type as typeof parser, { optional });
    }
    case "formObject": {
      const { validator, options } = source;
      return (request) => formObject(request, validator as StandardSchema, options);
    }
    case "file": {
      const { name, optional } = source;
      return async (request) => formFile(await request.form(), name, { optional });
    }
    case "files": {
      const { name } = source;
      return async (request) => formFiles(await request.form(), name);
    }
  }
}

/**
 * A signed cookie validated by a schema: not sent → the schema decides (as for any value read with
 * one); sent → its signature checked first (a wrong one: the `signature` 400, or `undefined` when
 * optional), then its value validated.
 */
function signedSchemaCookie(name: string, signer: CookieSigner, schema: StandardSchema, optional: boolean): ArgReader {
  return async (request) => {
    if (request.cookies.get(name) === undefined) return validateValue("cookie", name, schema, undefined, optional);
    const value = await signedCookieParam(request, name, signer, Text, { optional });
    return value === undefined ? undefined : validateValue("cookie", name, schema, value, false);
  };
}

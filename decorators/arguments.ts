import { signedCookieParam } from "../src/cookies/read.js";
import { cookieParam, headerParam, queryParam, queryParams, type ParamReader } from "../src/params.js";
import type { RoutedRequest } from "../src/request.js";
import { body } from "./body.js";
import type { ArgSource } from "./plan.js";

/** Reads one parameter's value from the request (a promise for a body or a signed cookie). */
export type ArgReader = ParamReader<unknown, RoutedRequest>;

/** True when the parameter's reader gives a promise (a body, a signed cookie): its handler awaits it. */
export function waitsFor(source: ArgSource | undefined): boolean {
  return source?.kind === "body" || (source?.kind === "cookie" && source.signed !== undefined);
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
      const { name, parser, optional, array } = source;
      return array
        ? (request) => queryParams(request, name, parser)
        : (request) => queryParam(request, name, parser, { optional });
    }
    case "header": {
      const { name, parser, optional } = source;
      return (request) => headerParam(request, name, parser, { optional });
    }
    case "cookie": {
      const { name, parser, optional, signed } = source;
      return signed === undefined
        ? (request) => cookieParam(request, name, parser, { optional })
        : (request) => signedCookieParam(request, name, signed, parser, { optional });
    }
    case "body": {
      const { type, options } = source;
      return (request) => body(request, type, options);
    }
  }
}

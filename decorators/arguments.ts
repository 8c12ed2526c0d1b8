import { headerParam, queryParam, queryParams, type ParamReader } from "../src/params.js";
import type { RoutedRequest } from "../src/request.js";
import { body } from "./body.js";
import type { ArgSource } from "./plan.js";

/** Reads one parameter's value from the request (a promise for a body). */
export type ArgReader = ParamReader<unknown, RoutedRequest>;

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
    case "body": {
      const { type, options } = source;
      return (request) => body(request, type, options);
    }
  }
}

import type { IncomingMessage, ServerResponse } from "node:http";
import { answerError, NO_MATCH, pipelineWith, type PipelineOptions, withDefaults } from "../pipeline.js";
import type { RoutedRequest } from "../request.js";
import type { Route } from "../tree.js";
import { nodeInput } from "./node-input.js";
import { sendReply } from "./node-write.js";

/** Options of {@link toApplication}: the ones every adapter shares. */
export type ApplicationOptions = PipelineOptions;

/**
 * Turns a route tree into a `node:http` request listener (also fits `https` and the `http2`
 * compatibility API): `http.createServer(toApplication(tree)).listen(3000)`. No match is a 404 with
 * an empty body. Handlers reach the `IncomingMessage` with {@link nodeRequest}.
 */
export function toApplication(
  tree: Route,
  options: ApplicationOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = pipelineWith(tree, withDefaults(options), answerError(options));
  return (req, res) => {
    const outcome = handle(nodeInput(req, "node", req));
    if (outcome instanceof Promise) outcome.then((reply) => sendReply(res, reply ?? NO_MATCH, options));
    else sendReply(res, outcome ?? NO_MATCH, options);
  };
}

/**
 * The `IncomingMessage` behind a request served by {@link toApplication} (or the Express adapter).
 * A `TypeError` for a request from another adapter.
 */
export function nodeRequest(request: RoutedRequest<object>): IncomingMessage {
  if (request.adapter === "node") return request.raw as IncomingMessage;
  if (request.adapter === "express") return request.raw as IncomingMessage;
  throw new TypeError(`nodeRequest: this request came through the "${request.adapter}" adapter, not node:http`);
}

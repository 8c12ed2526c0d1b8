import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import type { RequestInput } from "../request.js";

/**
 * A native-looking `IncomingMessage` for requests that never crossed a socket (`inject`, `interpret`),
 * so handlers that read `req.raw` or the body behave as they would in a server.
 */
export function standInMessage(input: RequestInput): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.method = input.method;
  message.url = input.url;
  message.headers = { ...input.headers };
  if (input.body !== undefined && input.body.length > 0) message.push(Buffer.from(input.body));
  message.push(null);
  return message;
}

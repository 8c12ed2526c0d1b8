import type { RoutedRequest } from "../request.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The `Last-Event-ID` a reconnecting `EventSource` sends: the id of the last event it received, so a
 * handler can resume after it. `undefined` when the header is absent or empty (a first connection).
 *
 * Clients send the id as UTF-8, and servers hand header values over as one character per byte; an id
 * that reads as UTF-8 that way is decoded (`é` comes back as `é`, not `Ã©`), any other is returned
 * as it came.
 */
export function lastEventId(request: Pick<RoutedRequest, "headers">): string | undefined {
  const raw = request.headers.get("last-event-id");
  if (raw === null || raw === "") return undefined;
  return fromBytes(raw);
}

/** `text` read as UTF-8 when its characters are bytes that form valid UTF-8; else `text`. */
function fromBytes(text: string): string {
  let wide = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return text; // already decoded by the runtime
    if (code > 0x7f) wide = true;
  }
  if (!wide) return text;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  try {
    return utf8.decode(bytes);
  } catch {
    return text;
  }
}

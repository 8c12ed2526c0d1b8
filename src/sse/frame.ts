/*
 * The wire format of server-sent events (WHATWG HTML, "9.2 Server-sent events", the event stream
 * format): one message becomes its lines of text, checked so that no value can end a line early and
 * so forge a field or an event of its own.
 */

/**
 * One event of a server-sent event stream. `data` is any text: each of its lines (split at CR LF, CR or
 * LF, as the client splits them) goes as a `data:` line, and the client joins them back with LF.
 * Without `data` nothing is dispatched, but `id` and `retry` still take effect.
 */
export interface SseEvent {
  /** The event's data, any text (sent as UTF-8: a lone surrogate goes as U+FFFD). */
  readonly data?: string;
  /**
   * The event type a client listens for with `addEventListener(type, …)`; `message` when absent or
   * empty. A CR or LF in it is a `TypeError` (it would end the field and forge the next).
   */
  readonly event?: string;
  /**
   * The event's id: the client keeps the last one and sends it back as `Last-Event-ID` when it
   * reconnects (read it with `lastEventId(req)`). An empty id clears the client's. A CR, LF or NUL in
   * it is a `TypeError` (a client ignores an id holding NUL). A number is written as `String(n)`.
   */
  readonly id?: string | number;
  /** Milliseconds the client waits before reconnecting from now on: an integer ≥ 0. */
  readonly retry?: number;
}

/** A comment line (`: text`): ignored by clients, it keeps the connection busy and shows in traces. */
export interface SseComment {
  /** The comment's text; a line break in it starts another comment line. */
  readonly comment: string;
}

/**
 * What an event producer yields: a string (the `data` of a `message` event), an {@link SseEvent}, or
 * an {@link SseComment}.
 */
export type SseMessage = string | SseEvent | SseComment;

/** A line break as the event stream's parser sees one: CR LF, a lone CR or a lone LF. */
const LINE_BREAK = /\r\n|\r|\n/;
const FIELD_BREAK = /[\r\n]/;
const NUL = "\0";

/**
 * The text of one message in the event stream format, ending with the blank line that dispatches it.
 * A message that cannot be framed safely is a `TypeError` (or a `RangeError` for a bad `retry`): a CR
 * or LF in `event` or `id`, a NUL in `id`, a non-string `data`, an object with none of the fields.
 */
export function sseFrame(message: SseMessage): string {
  if (typeof message === "string") return dataLines(message);
  if (typeof message !== "object" || message === null)
    throw new TypeError(`an SSE message must be a string or an object (event or comment), got ${kindOf(message)}`);
  if ("comment" in message) return commentFrame(message);
  const { data, event, id, retry } = message as SseEvent;
  if (data === undefined && event === undefined && id === undefined && retry === undefined)
    throw new TypeError("an SSE event must have at least one of data, event, id or retry (or be a { comment })");
  let out = "";
  if (event !== undefined) out += `event: ${fieldValue("event", event)}\n`;
  if (id !== undefined) out += `id: ${idValue(id)}\n`;
  if (retry !== undefined) out += retryLine(retry);
  if (data === undefined) return `${out}\n`;
  if (typeof data !== "string")
    throw new TypeError(
      `an SSE event's data must be a string, got ${kindOf(data)} (send JSON as data: JSON.stringify(value))`,
    );
  return out + dataLines(data);
}

/** `data:` lines for `data`, and the blank line. */
function dataLines(data: string): string {
  return `data: ${data.split(LINE_BREAK).join("\ndata: ")}\n\n`;
}

function commentFrame(message: SseComment): string {
  const extra = ["data", "event", "id", "retry"].filter((field) => field in message);
  if (extra.length > 0) throw new TypeError(`an SSE comment cannot also have ${extra.join(", ")}`);
  const text: unknown = message.comment;
  if (typeof text !== "string") throw new TypeError(`an SSE comment must be a string, got ${kindOf(text)}`);
  return sseComment(text);
}

/**
 * Comment lines (`: text`) for `text`, one per line of it, and a blank line (which dispatches nothing).
 * Clients ignore them; a heartbeat is one.
 */
export function sseComment(text: string): string {
  return `: ${text.split(LINE_BREAK).join("\n: ")}\n\n`;
}

/** A `retry:` line: how many milliseconds a client waits before reconnecting. */
export function retryLine(retry: unknown): string {
  if (typeof retry !== "number" || !Number.isSafeInteger(retry) || retry < 0)
    throw new RangeError(`SSE retry must be a whole number of milliseconds ≥ 0, got ${kindOf(retry)}`);
  return `retry: ${retry}\n`;
}

function fieldValue(field: string, value: unknown): string {
  if (typeof value !== "string") throw new TypeError(`an SSE event's ${field} must be a string, got ${kindOf(value)}`);
  if (FIELD_BREAK.test(value))
    throw new TypeError(
      `an SSE event's ${field} cannot hold a line break (CR or LF), which would forge a field: ${JSON.stringify(value)}`,
    );
  return value;
}

function idValue(id: unknown): string {
  const value = typeof id === "number" && Number.isFinite(id) ? String(id) : fieldValue("id", id);
  if (value.includes(NUL))
    throw new TypeError(`an SSE event's id cannot hold NUL (a client ignores such an id): ${JSON.stringify(value)}`);
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return `${typeof value} ${String(value)}`;
  return typeof value;
}

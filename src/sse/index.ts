/*
 * Server-sent events: `sse()` replies (reply.ts) with a stream (stream.ts) of messages framed per the
 * WHATWG HTML spec (frame.ts), from an iterable or a push channel (channel.ts); `lastEventId(req)`
 * for resuming (last-event-id.ts).
 */
export { sseChannel, type SseChannel, type SseChannelStart } from "./channel.js";
export { sseComment, sseFrame, type SseComment, type SseEvent, type SseMessage } from "./frame.js";
export { lastEventId } from "./last-event-id.js";
export { sse, type SseOptions } from "./reply.js";
export type { SseSource } from "./stream.js";

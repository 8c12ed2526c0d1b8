import { EventSource } from "eventsource";
import express from "express";
import fc from "fast-check";
import Koa from "koa";
import { Req, Route as RouteDecorator, controllers } from "../decorators";
import {
  alt,
  lastEventId,
  type PipelineOptions,
  type Route,
  type RoutedRequest,
  route,
  type SseEvent,
  sse,
} from "../src";
import { toExpress } from "../src/adapters/express";
import { toFetch } from "../src/adapters/fetch";
import { toKoa } from "../src/adapters/koa";
import { toApplication } from "../src/adapters/node";
import { serveFetch } from "./fixtures/sse-fetch-server";
import { type ParsedEvent, parseEventStream } from "./fixtures/sse-parser";
import { startServer, type TestServer } from "./helpers/server";
import { openStream } from "./helpers/sse-stream";
import { aborted, silentRoutes } from "./shared/sse-silent.cjs";

/*
 * Server-sent events over real loopback sockets, on every adapter that runs on Node: node:http, the
 * Fetch handler (served by node:http as a Node server for Fetch handlers serves it:
 * test/fixtures/sse-fetch-server.ts), Express 5 and Koa 3. Read by a real EventSource client (the
 * `eventsource` package) and by `fetch`, reading the body as it comes. Bun, Deno and workerd run the
 * SSE rows of the shared table (test/shared/behaviour.cjs).
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when `check()` holds, polling; rejects with `what` after `ms`. */
async function until(check: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(5);
  }
}

// ---- what the app records, per test key ---------------------------------------------------------

/** How many producers of each key ran their clean-up (`finally`). */
const cleanups = new Map<string, number>();
const cleaned = (key: string) => cleanups.get(key) ?? 0;
const countCleanup = (key: string) => cleanups.set(key, cleaned(key) + 1);
/** The Last-Event-ID each connection of a key arrived with. */
const lastIdsSeen = new Map<string, (string | undefined)[]>();
/** Lockstep: when each event was yielded, and the gates the client opens once it has read one. */
const yieldedAt = new Map<string, number[]>();
const gates = new Map<string, () => void>();
const errors: unknown[] = [];

const keyOf = (req: RoutedRequest<object>) => req.query.get("key") ?? "";

const HOSTILE_DATA = "1\r\n2\n\r3\r\r4\n\n5\r\n\r\n6\r";
const BIG_DATA = `${"x".repeat(1000)}\r\n`.repeat(1024);

/** Random events (fast-check, a fixed seed): any text in data, event types and ids without line breaks. */
const char = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom("\r", "\n", "\r\n", " ", ":", "\0", "é", "😀") },
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);
const text = fc.string({ unit: char, maxLength: 30 });
const line = text.map((s) => s.replace(/[\r\n]/g, ""));
const RANDOM_EVENTS: (SseEvent & { data: string; id: string })[] = fc.sample(
  fc.record({
    data: text,
    // ids the client can send back in a header: no NUL, no character above U+00FF (a Fetch client refuses those)
    id: line.map((s) => [...s].filter((c) => c !== "\0" && c.charCodeAt(0) <= 0xff).join("")),
  }),
  { seed: 25, numRuns: 100 },
);

class Feed {
  @RouteDecorator("GET /controller/feed")
  feed(@Req() req: RoutedRequest) {
    const after = Number(lastEventId(req) ?? 0);
    return sse(
      [after + 1, after + 2].map((n) => ({ event: "feed", id: String(n), data: `item ${n}` })),
      { retry: 10 },
    );
  }
}

function createApp(): Route {
  return alt(
    route("GET /events", () =>
      sse([
        "plain",
        { event: "multi", id: "1", data: "line 1\nline 2\r\nline 3\rline 4" },
        { comment: "a comment" },
        { id: "2", data: "" },
        { event: "end", id: "3", data: "bye" },
      ]),
    ),
    route("GET /resume", (req) => {
      const key = keyOf(req);
      const last = lastEventId(req);
      lastIdsSeen.set(key, [...(lastIdsSeen.get(key) ?? []), last]);
      const after = Number(last?.replace(/^id-é-/, "") ?? 0);
      // two events per connection, then the stream ends and the client reconnects
      return sse(
        [after + 1, after + 2].map((n) => ({ id: `id-é-${n}`, data: `event ${n}` })),
        { retry: 10 },
      );
    }),
    route("GET /lockstep", (req) => {
      const key = keyOf(req);
      const times: number[] = [];
      yieldedAt.set(key, times);
      return sse(async function* (signal) {
        for (let i = 1; i <= 5; i++) {
          times.push(performance.now());
          yield { id: String(i), data: `event ${i}` };
          // the next event only once the client has read this one: a buffered event would wait forever
          await Promise.race([new Promise<void>((open) => gates.set(`${key}/${i}`, open)), aborted(signal)]);
        }
      });
    }),
    ...silentRoutes({ route, sse }, countCleanup),
    route("GET /ticks", (req) => {
      const key = keyOf(req);
      return sse(
        (async function* () {
          // ignores any signal: told to return, it stops at its next step
          try {
            for (let i = 0; ; i++) {
              yield String(i);
              await sleep(20);
            }
          } finally {
            countCleanup(key);
          }
        })(),
      );
    }),
    route("GET /throws-before", () =>
      // biome-ignore lint/correctness/useYield: a producer that fails before its first event
      sse(async function* () {
        await sleep(5);
        throw new Error("before the first event");
      }),
    ),
    route("GET /throws-after", () =>
      sse(async function* () {
        yield { id: "1", data: "one" };
        await sleep(5);
        throw new Error("after the first event");
      }),
    ),
    route("GET /bad-event-first", () => sse([{ event: "x\ndata: forged", data: "y" }])),
    route("GET /bad-event-later", () => sse(["ok", { event: "x\ndata: forged", data: "y" }])),
    route("POST /jobs", async (req) => {
      const { steps } = await req.json<{ steps: number }>();
      return sse(async function* () {
        for (let i = 1; i <= steps; i++) yield { event: "progress", id: String(i), data: `${i}/${steps}` };
      });
    }),
    route("GET /big", () =>
      sse([
        { event: "big", data: BIG_DATA },
        { event: "end", data: "" },
      ]),
    ),
    route("GET /hostile", () => sse([HOSTILE_DATA, { event: "end", data: "" }])),
    route("GET /random", () => sse([...RANDOM_EVENTS, { event: "end", data: "" }])),
    controllers([Feed]),
  );
}

const tree = createApp();
const options: PipelineOptions = { onError: (error) => void errors.push(error) };

// ---- clients ------------------------------------------------------------------------------------

/** Events as an EventSource dispatches them, for the listed types, until one of type `end` or `count` of them. */
function eventSource(
  url: string,
  types: readonly string[],
  stop: (events: ParsedEvent[]) => boolean,
  ms = 4000,
): Promise<ParsedEvent[]> {
  const source = new EventSource(url);
  const events: ParsedEvent[] = [];
  return new Promise<ParsedEvent[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`EventSource: no end within ${ms} ms; got ${JSON.stringify(events).slice(0, 500)}`));
    }, ms);
    for (const type of types) {
      source.addEventListener(type, (event) => {
        const { data, lastEventId: id } = event as MessageEvent;
        events.push({ type, data, lastEventId: id });
        if (stop(events)) {
          clearTimeout(timer);
          source.close();
          resolve(events);
        }
      });
    }
  });
}

// ---- the adapters -------------------------------------------------------------------------------

const adapters: [string, () => Promise<TestServer>][] = [
  ["node:http", () => startServer(toApplication(tree, options))],
  ["Fetch (toFetch on node:http)", () => serveFetch(toFetch(tree, options))],
  [
    "Express 5",
    () => {
      const app = express();
      app.use(toExpress(tree, options));
      return startServer(app);
    },
  ],
  [
    "Koa 3",
    () => {
      const app = new Koa();
      app.on("error", () => undefined); // a cut stream errors inside Koa too; onError was told
      app.use(toKoa(tree, options));
      return startServer(app.callback());
    },
  ],
];

let serial = 0;
const newKey = () => `k${++serial}`;

describe.each(adapters)("%s", (adapter, start) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());
  beforeEach(() => (errors.length = 0));

  test("the headers: 200, text/event-stream, no-cache, X-Accel-Buffering: no, no content-length or encoding", async () => {
    const response = await fetch(`${server.url}/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("content-encoding")).toBeNull();
    await response.text();
  });

  test("EventSource: events in order, multi-line data, types and ids", async () => {
    const events = await eventSource(`${server.url}/events`, ["message", "multi", "end"], (e) => e.length === 4);
    expect(events).toEqual([
      { type: "message", data: "plain", lastEventId: "" },
      { type: "multi", data: "line 1\nline 2\nline 3\nline 4", lastEventId: "1" },
      { type: "message", data: "", lastEventId: "2" },
      { type: "end", data: "bye", lastEventId: "3" },
    ]);
  });

  test("fetch: the same stream, byte for byte as framed", async () => {
    const body = await (await fetch(`${server.url}/events`)).text();
    expect(body).toBe(
      "data: plain\n\n" +
        "event: multi\nid: 1\ndata: line 1\ndata: line 2\ndata: line 3\ndata: line 4\n\n" +
        ": a comment\n\n" +
        "id: 2\ndata: \n\n" +
        "event: end\nid: 3\ndata: bye\n\n",
    );
  });

  test("EventSource reconnects with Last-Event-ID (a non-ASCII id too) and the handler resumes after it", async () => {
    const key = newKey();
    const events = await eventSource(`${server.url}/resume?key=${key}`, ["message"], (e) => e.length === 6);
    expect(events.map((e) => e.data)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `event ${n}`));
    expect(lastIdsSeen.get(key)!.slice(0, 3)).toEqual([undefined, "id-é-2", "id-é-4"]);
  });

  test("no buffering: each event reaches the client before the producer makes the next", async () => {
    const key = newKey();
    const stream = await openStream(`${server.url}/lockstep?key=${key}`);
    const latencies: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const got = await stream.next();
      expect(got?.block).toBe(`id: ${i}\ndata: event ${i}\n\n`);
      latencies.push(got!.at - yieldedAt.get(key)![i - 1]!);
      gates.get(`${key}/${i}`)!(); // only now may the producer go on
    }
    expect(await stream.next()).toBeNull();
    // each event was on the client within a few milliseconds of being yielded (no flush timer, no Nagle)
    expect(Math.max(...latencies)).toBeLessThan(100);
  });

  test("heartbeats arrive on time while the producer never yields; leaving stops it", async () => {
    const key = newKey();
    const stream = await openStream(`${server.url}/silent?key=${key}&hb=80`);
    const started = performance.now();
    const times: number[] = [];
    while (times.length < 6) {
      const got = await stream.next();
      expect(got?.block).toBe(": heartbeat\n\n");
      times.push(got!.at - started);
    }
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThan(40);
    expect(Math.max(...gaps)).toBeLessThan(250);
    expect(cleaned(key)).toBe(0);
    stream.leave();
    await until(() => cleaned(key) === 1, "the producer's finally after the client left");
  });

  test("a client that leaves before anything was sent (no heartbeat): the producer is told", async () => {
    const key = newKey();
    const leave = new AbortController();
    const fetching = fetch(`${server.url}/silent?key=${key}`, { signal: leave.signal }).catch((e: unknown) => e);
    await sleep(100);
    expect(cleaned(key)).toBe(0);
    leave.abort();
    await fetching;
    await until(() => cleaned(key) === 1, "the producer's finally after the client left");
  });

  test("a client that leaves after an event while the producer waits (heartbeat far off): told at once", async () => {
    const key = newKey();
    const stream = await openStream(`${server.url}/first-then-silent?key=${key}`);
    expect((await stream.next())?.block).toBe("data: hello\n\n");
    await sleep(20);
    stream.leave();
    await until(() => cleaned(key) === 1, "the producer's finally after the client left", 1000);
  });

  test("a producer that ignores its signal: its finally runs once the client leaves (counted)", async () => {
    const keys = [newKey(), newKey(), newKey()];
    for (const key of keys) {
      const stream = await openStream(`${server.url}/ticks?key=${key}`);
      for (let i = 0; i < 3; i++) expect((await stream.next())?.block).toBe(`data: ${i}\n\n`);
      stream.leave();
    }
    await until(() => keys.every((key) => cleaned(key) === 1), "every producer's finally");
    await sleep(60);
    expect(keys.map(cleaned)).toEqual([1, 1, 1]); // once each
  });

  test("a producer that throws before its first event: a 500 before any byte of the stream", async () => {
    const response = await fetch(`${server.url}/throws-before`);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).not.toBe("text/event-stream");
    expect(await response.text()).toBe("Internal Server Error");
    expect(errors).toEqual([new Error("before the first event")]);
  });

  test("a producer that throws after its first event: the event arrives, then the stream is cut", async () => {
    const stream = await openStream(`${server.url}/throws-after`);
    expect(stream.response.status).toBe(200);
    expect((await stream.next())?.block).toBe("id: 1\ndata: one\n\n");
    await expect(stream.next()).rejects.toThrow();
    await until(() => errors.length === 1, "onError told");
  });

  test("an event type with a newline: refused (a 500 first, a cut later), never an injected event", async () => {
    const first = await fetch(`${server.url}/bad-event-first`);
    expect(first.status).toBe(500);
    expect(await first.text()).not.toContain("forged");
    const later = await openStream(`${server.url}/bad-event-later`);
    expect((await later.next())?.block).toBe("data: ok\n\n");
    await expect(later.next()).rejects.toThrow();
    expect(errors.map((e) => (e as Error).name)).toEqual(["TypeError", "TypeError"]);
  });

  test("a POST with a JSON body answered with events", async () => {
    const response = await fetch(`${server.url}/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ steps: 3 }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(parseEventStream(await response.text()).events).toEqual([
      { type: "progress", data: "1/3", lastEventId: "1" },
      { type: "progress", data: "2/3", lastEventId: "2" },
      { type: "progress", data: "3/3", lastEventId: "3" },
    ]);
  });

  test("a decorated controller method returning sse(): events, and Last-Event-ID through @Req", async () => {
    const events = await eventSource(`${server.url}/controller/feed`, ["feed"], (e) => e.length === 4);
    expect(events.map((e) => [e.data, e.lastEventId])).toEqual([
      ["item 1", "1"],
      ["item 2", "2"],
      ["item 3", "3"],
      ["item 4", "4"],
    ]);
  });

  test("hostile data: CR, LF and CR LF mixes arrive as LF-separated lines", async () => {
    const events = await eventSource(`${server.url}/hostile`, ["message", "end"], (e) => e.at(-1)?.type === "end");
    expect(events[0]!.data).toBe(HOSTILE_DATA.replace(/\r\n|\r/g, "\n"));
  });

  test("a 1 MB data field arrives whole", async () => {
    const events = await eventSource(`${server.url}/big`, ["big", "end"], (e) => e.at(-1)?.type === "end");
    expect(events[0]!.data.length).toBe(BIG_DATA.length - 1024);
    expect(events[0]!.data).toBe(BIG_DATA.replaceAll("\r\n", "\n"));
  });

  test("100 random events (any text) arrive through EventSource as the spec parser reads them", async () => {
    const events = await eventSource(`${server.url}/random`, ["message", "end"], (e) => e.at(-1)?.type === "end");
    const expected = parseEventStream(RANDOM_EVENTS.map((e) => `id: ${e.id}\n${sseDataLines(e.data)}`).join(""));
    expect(events.slice(0, -1).map((e) => e.data)).toEqual(expected.events.map((e) => e.data));
    expect(events.slice(0, -1).map((e) => e.lastEventId)).toEqual(RANDOM_EVENTS.map((e) => wellFormed(e.id)));
  });

  void adapter;
});

/** Data lines written here by hand (not by sseFrame), for the expected side of the random test. */
function sseDataLines(data: string): string {
  return `${data
    .split(/\r\n|\r|\n/)
    .map((l) => `data: ${wellFormed(l)}\n`)
    .join("")}\n`;
}

function wellFormed(s: string): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(new TextEncoder().encode(s));
}

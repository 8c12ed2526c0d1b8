import { join } from "node:path";
import { EventSource } from "eventsource";
import { type ParsedEvent, parseEventStream } from "./fixtures/sse-parser";
import { openStream } from "./helpers/sse-stream";
import { PACKAGE_ENTRY, ROOT } from "./shared/package-entry";
import { type RunningRuntime, startRuntimeScript } from "./shared/runtimes";

/*
 * Server-sent events on Bun and Deno, for real: each runtime serves an SSE app through the built
 * package's Fetch handler (test/fixtures/sse-serve.mjs) on 127.0.0.1, read over loopback by the
 * eventsource client and by fetch: events and multi-line data, Last-Event-ID on reconnect, each event
 * read before the producer makes the next, heartbeats from a producer that never yields, and the
 * producer's clean-up when the client leaves (before any byte, and after an event), which the server
 * reports at /stats. The shared table's SSE rows run there too, and on workerd (test/runtimes.test.ts).
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const SCRIPT = join(ROOT, "test/fixtures/sse-serve.mjs");

/** Starts the SSE app on `runtime`; resolves with its URL and a stop function once it listens. */
const start = (runtime: "bun" | "deno"): Promise<RunningRuntime> =>
  startRuntimeScript(runtime, SCRIPT, [PACKAGE_ENTRY.main, PACKAGE_ENTRY.fetch]);

/** Events as an EventSource dispatches them, for the listed types, until `stop` says so. */
function eventSource(url: string, types: readonly string[], done: (events: ParsedEvent[]) => boolean) {
  const source = new EventSource(url);
  const events: ParsedEvent[] = [];
  return new Promise<ParsedEvent[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`EventSource: not done within 4 s; got ${JSON.stringify(events)}`));
    }, 4000);
    for (const type of types) {
      source.addEventListener(type, (event) => {
        const { data, lastEventId } = event as MessageEvent;
        events.push({ type, data, lastEventId });
        if (done(events)) {
          clearTimeout(timer);
          source.close();
          resolve(events);
        }
      });
    }
  });
}

let serial = 0;
const newKey = () => `k${++serial}`;

describe.each(["bun", "deno"] as const)("%s (toFetch served by the runtime)", (runtime) => {
  let server: { url: string; stop: () => Promise<void> };
  beforeAll(async () => {
    server = await start(runtime);
  }, 30_000);
  afterAll(() => server?.stop());

  const stats = async (key: string) =>
    (await (await fetch(`${server.url}/stats?key=${key}`)).json()) as { cleaned: number; lastIds: (string | null)[] };
  const cleanedWithin = async (key: string, ms: number) => {
    const deadline = Date.now() + ms;
    while ((await stats(key)).cleaned === 0) {
      if (Date.now() > deadline) throw new Error(`${runtime}: the producer was not told within ${ms} ms`);
      await sleep(20);
    }
    return (await stats(key)).cleaned;
  };

  test("EventSource: events in order, multi-line data, types and ids; the headers", async () => {
    const response = await fetch(`${server.url}/events`);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(parseEventStream(await response.text()).events).toHaveLength(3);
    const events = await eventSource(`${server.url}/events`, ["message", "multi", "end"], (e) => e.length === 3);
    expect(events).toEqual([
      { type: "message", data: "plain", lastEventId: "" },
      { type: "multi", data: "line 1\nline 2\nline 3\nline 4", lastEventId: "1" },
      { type: "end", data: "bye", lastEventId: "2" },
    ]);
  });

  test("EventSource reconnects with Last-Event-ID and the handler resumes after it", async () => {
    const key = newKey();
    const events = await eventSource(`${server.url}/resume?key=${key}`, ["message"], (e) => e.length === 6);
    expect(events.map((e) => e.data)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `event ${n}`));
    expect((await stats(key)).lastIds.slice(0, 3)).toEqual([null, "2", "4"]);
  });

  test("no buffering: each event reaches the client before the producer makes the next", async () => {
    const key = newKey();
    const stream = await openStream(`${server.url}/lockstep?key=${key}`);
    for (let i = 1; i <= 5; i++) {
      expect((await stream.next())?.block).toBe(`id: ${i}\ndata: event ${i}\n\n`);
      expect(await (await fetch(`${server.url}/gate?key=${key}&i=${i}`)).text()).toBe("opened");
    }
    expect(await stream.next()).toBeNull();
  });

  test("heartbeats arrive on time while the producer never yields; leaving stops it", async () => {
    const key = newKey();
    const stream = await openStream(`${server.url}/silent?key=${key}&hb=80`);
    const times: number[] = [];
    while (times.length < 6) {
      const got = await stream.next();
      expect(got?.block).toBe(": heartbeat\n\n");
      times.push(got!.at);
    }
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThan(40);
    expect(Math.max(...gaps)).toBeLessThan(250);
    expect((await stats(key)).cleaned).toBe(0);
    stream.leave();
    expect(await cleanedWithin(key, 2000)).toBe(1);
  });

  test("a client that leaves before anything was sent (no heartbeat): the producer is told", async () => {
    const key = newKey();
    const leave = new AbortController();
    const fetching = fetch(`${server.url}/silent?key=${key}`, { signal: leave.signal }).catch((e: unknown) => e);
    await sleep(150);
    expect((await stats(key)).cleaned).toBe(0);
    leave.abort();
    await fetching;
    expect(await cleanedWithin(key, 2000)).toBe(1);
  });

  test("a client that leaves after an event while the producer waits (heartbeat far off): told", async () => {
    const key = newKey();
    const stream = await openStream(`${server.url}/first-then-silent?key=${key}`);
    expect((await stream.next())?.block).toBe("data: hello\n\n");
    stream.leave();
    expect(await cleanedWithin(key, 2000)).toBe(1);
  });

  test("a producer that throws after its first event: the event arrives, then the stream is cut", async () => {
    const stream = await openStream(`${server.url}/throws-after`);
    expect(stream.response.status).toBe(200);
    expect((await stream.next())?.block).toBe("id: 1\ndata: one\n\n");
    await expect(stream.next()).rejects.toThrow();
  });
});

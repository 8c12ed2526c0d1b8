import {
  HttpError,
  headersOf,
  inject,
  lastEventId,
  methodFallbacks,
  type Reply,
  route,
  type SseMessage,
  type SseOptions,
  type SseSource,
  sse,
  sseChannel,
} from "../src";
import { parseEventStream } from "./fixtures/sse-parser";

/*
 * An SSE reply in memory: its headers, its body read chunk by chunk as an adapter reads it (the body's
 * async iterator: `next()` per chunk, `return()` when the client leaves), and through `inject`. The
 * adapters over real sockets are in test/sse.adapters.test.ts.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The body's iterator, as an adapter gets it. */
function bodyOf(reply: Reply): AsyncIterator<string> {
  return (reply.body as AsyncIterable<string>)[Symbol.asyncIterator]();
}

/** Timers alive in this process (a heartbeat that outlives its stream shows here). */
const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("sse(): the reply", () => {
  test("200, text/event-stream, no-cache, X-Accel-Buffering: no", () => {
    const r = sse([]);
    expect(r.status).toBe(200);
    expect({ ...r.headers }).toEqual({
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
  });

  test("headers given are added; cache-control may be replaced; content-type and x-accel-buffering may not", () => {
    const r = sse([], {
      headers: { "X-Room": "7", "Cache-Control": "no-store", "Content-Type": "text/plain", "x-accel-buffering": "yes" },
    });
    expect({ ...r.headers }).toEqual({
      "x-room": "7",
      "cache-control": "no-store",
      "content-type": "text/event-stream",
      "x-accel-buffering": "no",
    });
  });

  test.each<[string, () => unknown, ErrorConstructor, RegExp]>([
    ["a string source", () => sse("hello" as unknown as SseSource), TypeError, /got a string .*sse\(\[text\]\)/],
    ["a number source", () => sse(5 as unknown as SseSource), TypeError, /must be an async iterable/],
    ["a null source", () => sse(null as unknown as SseSource), TypeError, /got null/],
    ["heartbeat 0", () => sse([], { heartbeat: 0 }), RangeError, /heartbeat must be/],
    ["heartbeat NaN", () => sse([], { heartbeat: Number.NaN }), RangeError, /heartbeat must be/],
    ["heartbeat Infinity", () => sse([], { heartbeat: Number.POSITIVE_INFINITY }), RangeError, /heartbeat/],
    ["retry -1", () => sse([], { retry: -1 }), RangeError, /retry must be/],
    ["a header with a line break", () => sse([], { headers: { "x-a": "1\r\nx-b: 2" } }), TypeError, /line break/],
  ])("%s is refused when the reply is made", (_name, make, kind, message) => {
    expect(make).toThrow(kind);
    expect(make).toThrow(message);
  });
});

describe("the body, read as an adapter reads it", () => {
  test("one chunk per message, in order; the producer runs only when the next chunk is asked for", async () => {
    const steps: string[] = [];
    const body = bodyOf(
      sse(async function* () {
        steps.push("first");
        yield "one";
        steps.push("second");
        yield { event: "two", data: "a\nb" };
        steps.push("end");
      }),
    );
    expect(steps).toEqual([]); // nothing runs before the adapter reads
    expect(await body.next()).toEqual({ done: false, value: "data: one\n\n" });
    expect(steps).toEqual(["first"]);
    expect(await body.next()).toEqual({ done: false, value: "event: two\ndata: a\ndata: b\n\n" });
    expect(steps).toEqual(["first", "second"]);
    expect(await body.next()).toEqual({ done: true, value: undefined });
    expect(steps).toEqual(["first", "second", "end"]);
  });

  test("a plain iterable (an array) is a source too", async () => {
    const body = bodyOf(sse(["a", { comment: "c" }, { id: 1, data: "b" }]));
    const chunks: string[] = [];
    for (let r = await body.next(); r.done !== true; r = await body.next()) chunks.push(r.value);
    expect(chunks).toEqual(["data: a\n\n", ": c\n\n", "id: 1\ndata: b\n\n"]);
  });

  test("the retry option goes with the first chunk; with an empty producer, alone", async () => {
    const body = bodyOf(sse(["x"], { retry: 3000 }));
    expect(await body.next()).toEqual({ done: false, value: "retry: 3000\ndata: x\n\n" });
    const empty = bodyOf(sse([], { retry: 10 }));
    expect(await empty.next()).toEqual({ done: false, value: "retry: 10\n\n" });
    expect(await empty.next()).toEqual({ done: true, value: undefined });
    expect(await bodyOf(sse([])).next()).toEqual({ done: true, value: undefined });
  });

  test("a silent producer: a heartbeat comment per interval, the first one carrying the retry", async () => {
    const body = bodyOf(
      sse(
        async function* (signal) {
          await new Promise((resolve) => signal.addEventListener("abort", resolve));
        },
        { heartbeat: 40, retry: 500 },
      ),
    );
    const started = performance.now();
    expect(await body.next()).toEqual({ done: false, value: "retry: 500\n: heartbeat\n\n" });
    for (let i = 0; i < 3; i++) expect(await body.next()).toEqual({ done: false, value: ": heartbeat\n\n" });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(4 * 40 - 5);
    expect(elapsed).toBeLessThan(4 * 40 + 400);
    await body.return!();
  });

  test("heartbeats count silence: a producer that yields often sends no heartbeat", async () => {
    const body = bodyOf(
      sse(
        async function* () {
          for (let i = 0; i < 8; i++) {
            await sleep(10);
            yield String(i);
          }
        },
        { heartbeat: 200 },
      ),
    );
    const chunks: string[] = [];
    for (let r = await body.next(); r.done !== true; r = await body.next()) chunks.push(r.value);
    expect(chunks.filter((c) => c.startsWith(":"))).toEqual([]);
    expect(chunks).toHaveLength(8);
  });

  test("the client leaving during a wait: the read ends, the signal aborts, finally runs, no timer is left", async () => {
    const before = timers();
    let finallyRan = 0;
    let aborted = false;
    const body = bodyOf(
      sse(
        async function* (signal) {
          signal.addEventListener("abort", () => (aborted = true));
          try {
            yield "first";
            await new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
            yield "never";
          } finally {
            finallyRan++;
          }
        },
        { heartbeat: 60_000 },
      ),
    );
    expect((await body.next()).value).toBe("data: first\n\n");
    const waiting = body.next(); // the producer waits, a heartbeat timer is armed
    await sleep(5);
    expect(timers()).toBe(before + 1);
    await body.return!();
    expect(await waiting).toEqual({ done: true, value: undefined });
    await sleep(0);
    expect({ aborted, finallyRan, timers: timers() }).toEqual({ aborted: true, finallyRan: 1, timers: before });
    expect(await body.next()).toEqual({ done: true, value: undefined });
  });

  test("the client leaving while the producer waits at a yield: its finally runs at once", async () => {
    let finallyRan = 0;
    const body = bodyOf(
      sse(
        (async function* () {
          try {
            yield "a";
            yield "b";
          } finally {
            finallyRan++;
          }
        })(),
      ),
    );
    await body.next();
    await body.return!();
    await sleep(0);
    expect(finallyRan).toBe(1);
  });

  test("a producer that ignores its signal is told to return, and finishes at its next step", async () => {
    let finallyRan = 0;
    const body = bodyOf(
      sse(async function* () {
        try {
          for (;;) {
            await sleep(20);
            yield "tick";
          }
        } finally {
          finallyRan++;
        }
      }),
    );
    await body.next();
    const waiting = body.next();
    await body.return!();
    expect(await waiting).toEqual({ done: true, value: undefined });
    await sleep(60);
    expect(finallyRan).toBe(1);
  });

  test("the producer function is not called for a reply that is never sent (a HEAD answer)", async () => {
    let called = 0;
    const app = route("GET /events", () =>
      sse(() => {
        called++;
        return ["x"];
      }),
    );
    const answered = await inject(
      app,
      { method: "HEAD", url: "/events" },
      { fallback: methodFallbacks({ head: true }) },
    );
    expect({ status: answered.status, body: answered.body, called }).toEqual({ status: 200, body: "", called: 0 });
    expect(answered.headers["content-type"]).toBe("text/event-stream");
    await inject(app, { url: "/events" });
    expect(called).toBe(1);
  });

  test("a message that cannot be framed fails the stream and returns the producer (its finally runs)", async () => {
    let finallyRan = 0;
    const body = bodyOf(
      sse(async function* () {
        try {
          yield "fine";
          yield { event: "bad\nevent: forged", data: "x" };
          yield "never";
        } finally {
          finallyRan++;
        }
      }),
    );
    expect((await body.next()).value).toBe("data: fine\n\n");
    await expect(body.next()).rejects.toThrow(TypeError);
    await sleep(0);
    expect(finallyRan).toBe(1);
    expect(await body.next()).toEqual({ done: true, value: undefined });
  });
});

describe("through inject: failures before and after the first event", () => {
  const errors: unknown[] = [];
  const options = { onError: (error: unknown) => void errors.push(error) };
  beforeEach(() => (errors.length = 0));

  const app = (source: SseSource, sseOptions?: SseOptions) => route("GET /events", () => sse(source, sseOptions));

  test("a producer that throws before its first event: a 500, onError told", async () => {
    const response = await inject(
      // biome-ignore lint/correctness/useYield: a producer that fails before its first event
      app(async function* () {
        await sleep(5);
        throw new Error("the feed is down");
      }),
      { url: "/events" },
      options,
    );
    expect(response.status).toBe(500);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(errors).toEqual([new Error("the feed is down")]);
  });

  test("a producer function that throws at once: a 500", async () => {
    const response = await inject(
      app(() => {
        throw new HttpError(503, "not now");
      }),
      { url: "/events" },
      options,
    );
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
  });

  test("a producer that throws after its first event: the events sent, then the stream is cut", async () => {
    const response = await inject(
      app(async function* () {
        yield { id: "1", data: "one" };
        throw new Error("mid-way");
      }),
      { url: "/events" },
      options,
    );
    expect({ status: response.status, ended: response.ended, body: response.body }).toEqual({
      status: 200,
      ended: "cut",
      body: "id: 1\ndata: one\n\n",
    });
    expect(errors).toEqual([new Error("mid-way")]);
  });

  test("an event with a newline in its type, first: a 500, and nothing of it is sent", async () => {
    const response = await inject(app([{ event: "x\ndata: forged", data: "y" }]), { url: "/events" }, options);
    expect(response.status).toBe(500);
    expect(response.body).not.toContain("forged");
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  test("a POST with a JSON body answered with events", async () => {
    const tree = route("POST /jobs", async (req) => {
      const { steps } = await req.json<{ steps: number }>();
      return sse(async function* () {
        for (let i = 1; i <= steps; i++) yield { event: "progress", id: String(i), data: `${i}/${steps}` };
      });
    });
    const response = await inject(tree, { method: "POST", url: "/jobs", body: '{"steps":3}' });
    expect(response.headers["content-type"]).toBe("text/event-stream");
    expect(parseEventStream(response.body).events).toEqual([
      { type: "progress", data: "1/3", lastEventId: "1" },
      { type: "progress", data: "2/3", lastEventId: "2" },
      { type: "progress", data: "3/3", lastEventId: "3" },
    ]);
  });
});

describe("sseChannel: the push form", () => {
  test("messages sent are read in order; close ends the stream after them", async () => {
    const body = bodyOf(
      sse(
        sseChannel((channel) => {
          channel.send("a");
          setTimeout(() => {
            channel.send({ event: "b", data: "2" });
            channel.close();
            expect(channel.send("late")).toBe(false);
          }, 5);
        }),
      ),
    );
    const chunks: string[] = [];
    for (let r = await body.next(); r.done !== true; r = await body.next()) chunks.push(r.value);
    expect(chunks).toEqual(["data: a\n\n", "event: b\ndata: 2\n\n"]);
  });

  test("start runs when the stream is first read; its clean-up runs once when the client leaves", async () => {
    let started = 0;
    let cleaned = 0;
    let channelSignal: AbortSignal | undefined;
    let send: ((m: SseMessage) => boolean) | undefined;
    const body = bodyOf(
      sse(
        sseChannel((channel) => {
          started++;
          channelSignal = channel.signal;
          send = channel.send;
          channel.send("hello");
          return () => cleaned++;
        }),
      ),
    );
    expect(started).toBe(0);
    expect((await body.next()).value).toBe("data: hello\n\n");
    expect(started).toBe(1);
    const waiting = body.next();
    await body.return!();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect({ cleaned, aborted: channelSignal?.aborted }).toEqual({ cleaned: 1, aborted: true });
    expect(send!("after")).toBe(false);
    await body.return!();
    expect(cleaned).toBe(1);
  });

  test("an async start whose clean-up comes after the client left: the clean-up runs then", async () => {
    let cleaned = 0;
    let resolveStart: ((cleanup: () => void) => void) | undefined;
    const body = bodyOf(
      sse(
        sseChannel(
          () =>
            new Promise<() => void>((resolve) => {
              resolveStart = resolve;
            }),
        ),
        { heartbeat: 10 },
      ),
    );
    expect((await body.next()).value).toBe(": heartbeat\n\n");
    await body.return!();
    expect(cleaned).toBe(0);
    resolveStart!(() => cleaned++);
    await sleep(0);
    expect(cleaned).toBe(1);
  });

  test("send refuses a message that cannot be framed, where the caller sees it", async () => {
    let thrown: unknown;
    const body = bodyOf(
      sse(
        sseChannel((channel) => {
          try {
            channel.send({ id: "1\n2", data: "x" });
          } catch (error) {
            thrown = error;
          }
          channel.send("ok");
          channel.close();
        }),
      ),
    );
    expect((await body.next()).value).toBe("data: ok\n\n");
    expect(thrown).toBeInstanceOf(TypeError);
  });

  test("fail: after the queued messages, the stream fails (a cut); before any, a 500", async () => {
    const failing = route("GET /f", () =>
      sse(
        sseChannel((channel) => {
          channel.send("one");
          channel.fail(new Error("upstream gone"));
        }),
      ),
    );
    const cut = await inject(failing, { url: "/f" }, { onError: () => undefined });
    expect({ status: cut.status, ended: cut.ended, body: cut.body }).toEqual({
      status: 200,
      ended: "cut",
      body: "data: one\n\n",
    });
    const early = route("GET /f", () =>
      sse(
        sseChannel(() => {
          throw new Error("cannot subscribe");
        }),
      ),
    );
    expect((await inject(early, { url: "/f" }, { onError: () => undefined })).status).toBe(500);
  });

  test("sseChannel needs a function", () => {
    expect(() => sseChannel("x" as never)).toThrow(TypeError);
  });
});

describe("lastEventId(req)", () => {
  const of = (headers: Record<string, string>) => lastEventId({ headers: headersOf(headers) });

  test("the header's value; undefined when absent or empty", () => {
    expect(of({ "Last-Event-ID": "41" })).toBe("41");
    expect(of({})).toBeUndefined();
    expect(of({ "last-event-id": "" })).toBeUndefined();
  });

  test("an id sent as UTF-8 and handed over one character per byte is decoded", () => {
    const latin1 = String.fromCharCode(...new TextEncoder().encode("évé-€-😀"));
    expect(of({ "last-event-id": latin1 })).toBe("évé-€-😀");
  });

  test("bytes that are no UTF-8, or text already decoded, come back as they are", () => {
    expect(of({ "last-event-id": "caf\u00e9" })).toBe("caf\u00e9");
    expect(of({ "last-event-id": "€5" })).toBe("€5");
  });

  test("a handler resumes after it", async () => {
    const app = route("GET /feed", (req) => {
      const after = Number(lastEventId(req) ?? 0);
      return sse([after + 1, after + 2].map((n) => ({ id: String(n), data: `item ${n}` })));
    });
    const first = await inject(app, { url: "/feed" });
    const last = parseEventStream(first.body).lastEventId;
    const again = await inject(app, { url: "/feed", headers: { "Last-Event-ID": last } });
    expect(parseEventStream(again.body).events.map((e) => e.data)).toEqual(["item 3", "item 4"]);
  });
});

import type { IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { alt, route, toApplication } from "../src";
import { NodeBody } from "../src/adapters/node-input";
import { eventually } from "./helpers/eventually";
import { startServer, type TestServer } from "./helpers/server";

/*
 * How the node adapter pulls a request body (NodeBody): whatever way the bytes arrive — with the headers,
 * in pieces with pauses between, declared by length or chunked — the handler reads exactly the body
 * sent; a client that leaves mid-body fails the read (and the server goes on); and once the body is
 * read, no listener is left on the request.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: TestServer;
/** Listeners left on each request once its handler has read the body (readable, end, error, close). */
const leftOver: number[] = [];
const readFailures: string[] = [];
/** The events listened to on each request while its handler read the body. */
const listenedTo: string[][] = [];
/** Whether each request's stream ended (`end`) after its handler read the body. */
const ended: boolean[] = [];

beforeAll(async () => {
  const app = alt(
    route("POST /echo", async (req) => {
      const text = await req.text();
      const incoming = req.raw as IncomingMessage;
      leftOver.push(["readable", "end", "error"].reduce((sum, event) => sum + incoming.listenerCount(event), 0));
      return text;
    }),
    route("POST /read-or-fail", async (req) => {
      try {
        return await req.text();
      } catch (error) {
        readFailures.push((error as Error).message);
        throw error;
      }
    }),
    route("POST /quiet", async (req) => {
      const incoming = req.raw as IncomingMessage;
      const events: string[] = [];
      const record = (event: string | symbol) => events.push(String(event));
      incoming.on("newListener", record);
      const text = await req.text();
      incoming.off("newListener", record);
      listenedTo.push(events);
      return text;
    }),
    route("POST /ends", async (req) => {
      const incoming = req.raw as IncomingMessage;
      const at = ended.push(false) - 1;
      incoming.once("end", () => {
        ended[at] = true;
      });
      return await req.text();
    }),
    route("GET /ok", () => "ok"),
  );
  server = await startServer(toApplication(app, { onError: () => undefined }));
});
afterAll(() => server.close());

/** Sends the request as `pieces` (bytes as latin1), `pauseMs` apart; resolves with the response (latin1). */
function sendInPieces(pieces: readonly string[], pauseMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(server.port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(received).toString("latin1")));
    socket.on("connect", async () => {
      for (const piece of pieces) {
        socket.write(piece, "latin1");
        if (pauseMs > 0) await sleep(pauseMs);
      }
    });
  });
}

/** `body` cut at `cuts` (positions), as the pieces of a request with a declared length or chunked. */
function requestPieces(body: string, cuts: readonly number[], chunked: boolean): string[] {
  const bytes = Buffer.from(body, "utf8");
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) parts.push(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  const head = `POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\ncontent-type: text/plain\r\n`;
  if (!chunked) return [`${head}content-length: ${bytes.length}\r\n\r\n`, ...parts.map((p) => p.toString("latin1"))];
  return [
    `${head}transfer-encoding: chunked\r\n\r\n`,
    ...parts.map((p) => `${p.length.toString(16)}\r\n${p.toString("latin1")}\r\n`),
    "0\r\n\r\n",
  ];
}

/** The body of a raw response, chunked or not. */
function bodyOfResponse(raw: string): string {
  const [head = "", rest = ""] = raw.split(/\r\n\r\n(.*)/s);
  if (!/transfer-encoding: chunked/i.test(head)) return rest;
  let out = "";
  let text = rest;
  for (;;) {
    const line = text.indexOf("\r\n");
    const size = Number.parseInt(text.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += text.slice(line + 2, line + 2 + size);
    text = text.slice(line + 2 + size + 2);
  }
}

test("a body sent with its headers, in one write, is read whole", async () => {
  const raw = await sendInPieces([requestPieces("héllo wörld", [], false).join("")], 0);
  expect(raw).toMatch(/^HTTP\/1\.1 200/);
  expect(Buffer.from(bodyOfResponse(raw), "latin1").toString("utf8")).toBe("héllo wörld");
});

test("a body sent with its headers is read once the parse is over, without listening to the request", async () => {
  listenedTo.length = 0;
  const request = (body: string) =>
    `POST /quiet HTTP/1.1\r\nHost: x\r\nConnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
  const raw = await sendInPieces([request("in one write")], 0);
  expect(bodyOfResponse(raw)).toBe("in one write");
  // a body that comes later is waited for with the listeners
  const late = await sendInPieces([request("later").slice(0, -5), "later"], 20);
  expect(bodyOfResponse(late)).toBe("later");
  expect(listenedTo).toEqual([[], ["readable", "end", "error", "close"]]);
});

test("any body, cut anywhere, with or without pauses, declared or chunked, is read exactly", async () => {
  await fc.assert(
    fc.asyncProperty(
      // well-formed text: a lone surrogate would not survive UTF-8 in either direction
      fc.string({ unit: "binary", maxLength: 200 }).filter((s) => Buffer.from(s).toString() === s),
      fc.array(fc.nat(400), { maxLength: 5 }),
      fc.boolean(),
      fc.constantFrom(0, 2),
      async (body, cuts, chunked, pauseMs) => {
        const raw = await sendInPieces(requestPieces(body, cuts, chunked), pauseMs);
        expect(raw).toMatch(/^HTTP\/1\.1 200/);
        expect(Buffer.from(bodyOfResponse(raw), "latin1").toString("utf8")).toBe(body);
      },
    ),
    { numRuns: 40 },
  );
}, 60_000);

test("once the body is read, no body listener is left on the request", async () => {
  leftOver.length = 0;
  await sendInPieces(requestPieces("ab", [1], true), 2);
  await sendInPieces(requestPieces("abc", [], false), 0);
  expect(leftOver).toEqual([0, 0]);
});

test("a body read to its end leaves the request stream ended, however it came", async () => {
  ended.length = 0;
  const request = (body: string) =>
    `POST /ends HTTP/1.1\r\nHost: x\r\nConnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
  await sendInPieces([request("with the headers")], 0);
  await sendInPieces([request("later").slice(0, -5), "later"], 20);
  await sendInPieces(
    requestPieces("chunked", [3], true).map((p) => p.replace("/echo", "/ends")),
    2,
  );
  expect(
    await eventually(
      () => [...ended],
      (all) => all.length === 3 && all.every(Boolean),
    ),
  ).toEqual([true, true, true]);
});

test("a client that leaves mid-body fails the read; the server goes on", async () => {
  readFailures.length = 0;
  await new Promise<void>((resolve) => {
    const socket = connect(server.port, "127.0.0.1", () => {
      socket.write("POST /read-or-fail HTTP/1.1\r\nHost: x\r\ncontent-length: 100\r\n\r\nonly part of it");
      setTimeout(() => socket.destroy(), 20);
    });
    socket.on("close", () => resolve());
    socket.on("error", () => undefined);
  });
  expect(
    await eventually(
      () => [...readFailures],
      (failures) => failures.length > 0,
    ),
  ).toEqual([expect.stringMatching(/closed|aborted/)]);
  expect(await (await fetch(`${server.url}/ok`)).text()).toBe("ok");
});

test("a body stopped early lets the rest flow by: the stream ends, nothing is kept", async () => {
  const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(stream, { complete: false, headers: {} });
  const body = new NodeBody(stream);
  const first = body.read();
  stream.write(Buffer.from("first"));
  expect(Buffer.from((await first)!).toString()).toBe("first");
  const waiting = body.read(); // nothing buffered: it waits, listening
  stream.write(Buffer.from("second"));
  expect(Buffer.from((await waiting)!).toString()).toBe("second");
  body.stop();
  expect(stream.listenerCount("readable")).toBe(0);
  let ended = false;
  stream.on("end", () => {
    ended = true;
  });
  stream.end(Buffer.from("the rest"));
  expect(
    await eventually(
      () => ended,
      (done) => done,
    ),
  ).toBe(true);
  expect(await body.read()).toBeNull();
});

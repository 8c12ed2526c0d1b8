import fc from "fast-check";
import { type SseEvent, type SseMessage, sseComment, sseFrame } from "../src";
import { parseEventStream } from "./fixtures/sse-parser";

/*
 * The event stream format (WHATWG HTML 9.2.5): what sseFrame writes, read back by a parser written
 * from the spec (test/fixtures/sse-parser.ts). Every line break a client knows (CR LF, CR, LF) splits
 * data; nothing in `event` or `id` can end its line early; the framing round-trips for any text.
 */

// ignoreBOM: a value may begin with U+FEFF (the stream never does; the parser drops a leading one, as a client does)
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();
/** What a client reads: the text sent as UTF-8 and decoded back (a lone surrogate becomes U+FFFD). */
const overTheWire = (text: string): string => utf8.decode(encoder.encode(text));
/**
 * Data as a client gets it back: its text as UTF-8 carries it, each line break (CR LF, CR or LF) an LF —
 * a client cannot tell them apart, the format says so.
 */
const asRead = (data: string): string => overTheWire(data).replace(/\r\n|\r/g, "\n");

describe("sseFrame: the lines of one message", () => {
  test("a string is the data of a message event", () => {
    expect(sseFrame("hello")).toBe("data: hello\n\n");
  });

  test("an event with every field", () => {
    expect(sseFrame({ event: "update", id: "7", retry: 2500, data: "x" })).toBe(
      "event: update\nid: 7\nretry: 2500\ndata: x\n\n",
    );
  });

  test("multi-line data: one data line per line, at LF, CR and CR LF alike", () => {
    expect(sseFrame("a\nb")).toBe("data: a\ndata: b\n\n");
    expect(sseFrame("a\rb")).toBe("data: a\ndata: b\n\n");
    expect(sseFrame("a\r\nb")).toBe("data: a\ndata: b\n\n");
    // mixed: CR CR LF is a CR line end and then a CR LF one (an empty line between)
    expect(sseFrame("a\r\r\nb\n\rc\r\n\nd")).toBe("data: a\ndata: \ndata: b\ndata: \ndata: c\ndata: \ndata: d\n\n");
  });

  test("leading and trailing line breaks, and empty data, survive", () => {
    expect(parseEventStream(sseFrame("\nx\n")).events.map((e) => e.data)).toEqual(["\nx\n"]);
    expect(sseFrame("")).toBe("data: \n\n");
    expect(parseEventStream(sseFrame("")).events).toEqual([{ type: "message", data: "", lastEventId: "" }]);
  });

  test("a leading space or colon in data is kept (one space after the colon is the separator)", () => {
    const stream = parseEventStream(sseFrame(" spaced") + sseFrame(":colon") + sseFrame("  two"));
    expect(stream.events.map((e) => e.data)).toEqual([" spaced", ":colon", "  two"]);
  });

  test("an id may be a number; an empty id clears the client's", () => {
    expect(sseFrame({ id: 42, data: "x" })).toBe("id: 42\ndata: x\n\n");
    const stream = parseEventStream(sseFrame({ id: "1", data: "a" }) + sseFrame({ id: "", data: "b" }));
    expect(stream.events.map((e) => e.lastEventId)).toEqual(["1", ""]);
  });

  test("an event without data dispatches nothing but its id and retry count", () => {
    const stream = parseEventStream(sseFrame({ id: "9", retry: 100 }) + sseFrame("after"));
    expect(stream.events).toEqual([{ type: "message", data: "after", lastEventId: "9" }]);
    expect(stream.retries).toEqual([100]);
  });

  test("a comment: one ': ' line per line of it, ignored by the client", () => {
    expect(sseFrame({ comment: "keep\r\nalive" })).toBe(": keep\n: alive\n\n");
    expect(sseComment("ping")).toBe(": ping\n\n");
    expect(parseEventStream(sseFrame({ comment: "a\nevent: x\ndata: forged" })).events).toEqual([]);
  });
});

describe("sseFrame refuses what it cannot frame safely (a TypeError, nothing written)", () => {
  test.each([
    ["an event with LF", { event: "a\nb", data: "x" }],
    ["an event with CR", { event: "a\rb", data: "x" }],
    ["an event with CR LF", { event: "update\r\ndata: forged", data: "x" }],
    ["an id with LF", { id: "1\nevent: forged", data: "x" }],
    ["an id with CR", { id: "1\r", data: "x" }],
    ["an id with NUL", { id: "1\u00002", data: "x" }],
  ] as const)("%s", (_name, message) => {
    expect(() => sseFrame(message)).toThrow(TypeError);
  });

  test("the error says which field and why", () => {
    expect(() => sseFrame({ event: "a\nb" })).toThrow(/event cannot hold a line break/);
    expect(() => sseFrame({ id: "a\0b" })).toThrow(/id cannot hold NUL/);
  });

  test.each([
    ["data that is no string", { data: { a: 1 } }, TypeError, /data must be a string.*JSON\.stringify/],
    ["an event that is no string", { event: 1, data: "x" }, TypeError, /event must be a string/],
    ["an id that is an object", { id: {}, data: "x" }, TypeError, /id must be a string/],
    ["an id that is NaN", { id: Number.NaN, data: "x" }, TypeError, /id must be a string/],
    ["an object with no field", { date: "typo" }, TypeError, /at least one of data, event, id or retry/],
    ["a comment with data", { comment: "c", data: "x" }, TypeError, /comment cannot also have data/],
    ["a comment that is no string", { comment: 5 }, TypeError, /comment must be a string/],
    ["null", null, TypeError, /must be a string or an object/],
    ["a negative retry", { retry: -1 }, RangeError, /retry must be a whole number/],
    ["a fractional retry", { retry: 1.5 }, RangeError, /retry must be a whole number/],
    ["a string retry", { retry: "10" }, RangeError, /retry must be a whole number/],
  ])("%s", (_name, message, kind, pattern) => {
    expect(() => sseFrame(message as SseMessage)).toThrow(kind);
    expect(() => sseFrame(message as SseMessage)).toThrow(pattern);
  });
});

describe("hostile data", () => {
  test("CR, LF and CR LF mixed in every order: the client reads back the text with LF line ends", () => {
    const data = "1\r\n2\n\r3\r\r4\n\n5\r\n\r\n6\r";
    expect(parseEventStream(sseFrame(data)).events.map((e) => e.data)).toEqual(["1\n2\n\n3\n\n4\n\n5\n\n6\n"]);
  });

  test("data that looks like fields, events and comments stays data", () => {
    const data = "data: x\n\nevent: forged\nid: 666\n: comment\nretry: 1";
    const stream = parseEventStream(sseFrame({ id: "1", data }));
    expect(stream.events).toEqual([{ type: "message", data, lastEventId: "1" }]);
    expect(stream.retries).toEqual([]);
  });

  test("a 1 MB data field (with line breaks) is framed and read back whole, in well under a second", () => {
    const line = `${"x".repeat(1000)}\r\n`;
    const data = line.repeat(1024);
    const started = performance.now();
    const framed = sseFrame({ event: "big", data });
    const stream = parseEventStream(framed);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(framed.length).toBeGreaterThan(1_000_000);
    expect(stream.events).toHaveLength(1);
    expect(stream.events[0]!.type).toBe("big");
    expect(stream.events[0]!.data).toBe(data.replaceAll("\r\n", "\n"));
  });

  test("a 1 MB data field on one line", () => {
    const data = "y".repeat(1 << 20);
    expect(parseEventStream(sseFrame(data)).events[0]!.data).toBe(data);
  });
});

/** Characters that matter to the format, and any others. */
const char = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom("\r", "\n", "\r\n", " ", ":", "\0", "\uFEFF", "\uD800", "\uDC00", "é") },
  { weight: 5, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);
const anyText = fc.string({ unit: char, maxLength: 40 });
const lineText = anyText.map((s) => s.replace(/[\r\n]/g, ""));
const idText = lineText.map((s) => s.replace(/\0/g, ""));

const anEvent: fc.Arbitrary<SseEvent & { data: string }> = fc.record(
  { data: anyText, event: lineText, id: idText },
  { requiredKeys: ["data"] },
);

describe("property: the framing round-trips through a spec parser", () => {
  test("any event: the client gets back its data (line breaks as LF), type and id, as UTF-8 carries them", () => {
    fc.assert(
      fc.property(anEvent, (event) => {
        const stream = parseEventStream(overTheWire(sseFrame(event)));
        expect(stream.events).toEqual([
          {
            type: event.event === undefined || event.event === "" ? "message" : overTheWire(event.event),
            data: asRead(event.data),
            lastEventId: overTheWire(String(event.id ?? "")),
          },
        ]);
      }),
      { numRuns: 2000 },
    );
  });

  test("any sequence of strings, events and comments: the events in order, ids carried over", () => {
    const message: fc.Arbitrary<SseMessage> = fc.oneof(
      anyText,
      anEvent,
      anyText.map((comment) => ({ comment })),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const expected: { type: string; data: string; lastEventId: string }[] = [];
        let id = "";
        for (const m of messages) {
          if (typeof m === "string") expected.push({ type: "message", data: asRead(m), lastEventId: id });
          else if (!("comment" in m)) {
            if (m.id !== undefined) id = overTheWire(String(m.id));
            const type = m.event === undefined || m.event === "" ? "message" : overTheWire(m.event);
            expected.push({ type, data: asRead(m.data!), lastEventId: id });
          }
        }
        const stream = parseEventStream(overTheWire(messages.map(sseFrame).join("")));
        expect(stream.events).toEqual(expected);
        expect(stream.lastEventId).toBe(id);
      }),
      { numRuns: 500 },
    );
  });

  test("any event or id holding CR or LF is refused; so is any id holding NUL", () => {
    const broken = fc
      .tuple(lineText, fc.constantFrom("\r", "\n", "\r\n"), lineText)
      .map(([a, br, b]) => `${a}${br}${b}`);
    fc.assert(
      fc.property(broken, (bad) => {
        expect(() => sseFrame({ event: bad, data: "x" })).toThrow(TypeError);
        expect(() => sseFrame({ id: bad, data: "x" })).toThrow(TypeError);
      }),
    );
    fc.assert(
      fc.property(idText, idText, (a, b) => {
        expect(() => sseFrame({ id: `${a}\0${b}`, data: "x" })).toThrow(TypeError);
      }),
    );
  });

  test("a retry is any whole number of milliseconds, read back as sent", () => {
    fc.assert(
      fc.property(fc.nat(), (retry) => {
        expect(parseEventStream(sseFrame({ retry })).retries).toEqual([retry]);
      }),
    );
  });
});

import fc from "fast-check";
import {
  alt,
  type ClientFetch,
  ClientError,
  client,
  Day,
  guard,
  json,
  match,
  PatternError,
  type RoutedRequest,
  route,
  routeMismatch,
  testFetch,
  UrlError,
  use,
} from "../src";
import { reachedTwoWays } from "./helpers/reached-two-ways";

/*
 * client<typeof app>(options) at run time: a call names a method and a path template; the template's
 * own route (parsed by the pattern grammar) gives urlFor the path, each value written by its parser, and
 * the request goes through the transport (testFetch in memory, or the real fetch over node:http). No
 * tree is given: a browser has only the app's type. The types are in test/types/client-routes.test.ts.
 */

const app = alt(
  route("GET /users/id:Int", (req) => ({ id: req.vars.id, born: new Date(Date.UTC(2024, 0, 2)) })),
  route("POST /users", async (req: RoutedRequest) => json({ made: await req.json() }, { status: 201 })),
  // two routes on one template: the first gives way for even ids
  route("GET /items/id:Int", (req) => (req.vars.id % 2 === 0 ? routeMismatch() : { odd: req.vars.id })),
  route("GET /items/id:Int", (req) => ({ even: req.vars.id })),
  match(
    "/orgs/org:Text",
    alt(
      route("GET /on/on:Day", (req) => ({ org: req.vars.org, on: req.vars.on.toString() })),
      guard(
        (req) => req.headers.get("x-key") === "k",
        route("DELETE /members/name:Text", () => undefined),
      ),
      use(
        async (_req, next) => next(),
        route("GET /echo/text:Text", (req) => req.vars.text),
      ),
    ),
  ),
  match("GET /files", (req) => `rest ${JSON.stringify(req.rest)}`),
  route("/any", (req) => `any ${req.method}`),
  route("PROPFIND /dav", () => "dav"),
);

describe.each(reachedTwoWays(app))("client<typeof app>() %s", (_how, options) => {
  test("a call sends its method and the path its template and variables make; JSON comes back as JSON", async () => {
    const api = client<typeof app>(options());
    expect(await api["/users/id:Int"].get({ vars: { id: 7 } })).toEqual({ id: 7, born: "2024-01-02T00:00:00.000Z" });
    expect(await api["/users"].post({ body: { name: "ada" } })).toEqual({ made: { name: "ada" } });
  });

  test("prefixes join the templates; routes under a guard and a middleware are called like any other", async () => {
    const api = client<typeof app>(options());
    expect(await api["/orgs/org:Text/on/on:Day"].get({ vars: { org: "a b/c", on: Day.of(2024, 2, 29) } })).toEqual({
      org: "a b/c",
      on: "2024-02-29",
    });
    expect(
      await api["/orgs/org:Text/members/name:Text"].delete({
        vars: { org: "o", name: "n" },
        headers: { "x-key": "k" },
      }),
    ).toBeUndefined();
    const refused = await api["/orgs/org:Text/members/name:Text"]
      .delete({ vars: { org: "o", name: "n" } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ClientError);
    expect((refused as ClientError).status).toBe(404);
    expect(await api["/orgs/org:Text/echo/text:Text"].get({ vars: { org: "o", text: "%2F é" } })).toBe("%2F é");
  });

  test("a rest route takes its segments; a route for any method answers every verb; a custom method is its own call", async () => {
    const api = client<typeof app>(options());
    expect(await api["/files/*"].get({ rest: ["a", "b c"] })).toBe('rest ["a","b c"]');
    expect(await api["/files/*"].get()).toBe("rest []");
    expect(await api["/any"].put()).toBe("any PUT");
    expect(await api["/any"].patch()).toBe("any PATCH");
    expect(await api["/dav"].propfind()).toBe("dav");
  });

  test("two routes on one template: the call reaches whichever answers, as any request does", async () => {
    const api = client<typeof app>(options());
    expect(await api["/items/id:Int"].get({ vars: { id: 3 } })).toEqual({ odd: 3 });
    expect(await api["/items/id:Int"].get({ vars: { id: 4 } })).toEqual({ even: 4 });
  });
});

describe("what is refused before anything is sent", () => {
  const sent: string[] = [];
  const counting: ClientFetch = async (url, init) => {
    sent.push(url);
    return testFetch(app)(url, init);
  };
  const api = client<typeof app>({ fetch: counting });
  beforeEach(() => {
    sent.length = 0;
  });

  test("a missing variable is a UrlError", async () => {
    await expect(api["/users/id:Int"].get({ vars: {} as { id: number } })).rejects.toThrow(UrlError);
    expect(sent).toEqual([]);
  });

  test("a value its parser cannot write back is a UrlError", async () => {
    await expect(api["/users/id:Int"].get({ vars: { id: 1.5 } })).rejects.toThrow(UrlError);
    expect(sent).toEqual([]);
  });

  test("a malformed template (past the types) is the PatternError the grammar gives", async () => {
    await expect(api["/users/id:Intt" as "/users/id:Int"].get({ vars: { id: 1 } })).rejects.toThrow(PatternError);
    expect(sent).toEqual([]);
  });
});

test("every Int and every text value reaches the handler as it was given (written by their parsers)", async () => {
  const api = client<typeof app>({ fetch: testFetch(app) });
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
      fc.string({ minLength: 1 }),
      async (id, text) => {
        expect(await api["/users/id:Int"].get({ vars: { id } })).toMatchObject({ id });
        expect(await api["/orgs/org:Text/echo/text:Text"].get({ vars: { org: "o", text } })).toBe(text);
      },
    ),
    { numRuns: 200 },
  );
});

test("what is no template or call is undefined: awaiting the client or a template sends nothing", async () => {
  const sent: string[] = [];
  const api = client<typeof app>({
    fetch: async (url, init) => {
      sent.push(url);
      return testFetch(app)(url, init);
    },
  });
  const loose = api as unknown as Record<string | symbol, unknown>;
  const template = api["/any"] as unknown as Record<string | symbol, unknown>;
  expect([
    loose.then,
    loose.toJSON,
    loose[Symbol.toPrimitive],
    template.then,
    template.constructor,
    template.toJSON,
  ]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  expect(await api).toBe(api);
  expect(await api["/any"]).toBe(api["/any"]);
  expect(JSON.stringify(api["/any"])).toBe("{}");
  expect(sent).toEqual([]);
});

test("no fetch at all is a TypeError naming the option", () => {
  const saved = globalThis.fetch;
  try {
    // @ts-expect-error: the global fetch removed for this test
    delete globalThis.fetch;
    expect(() => client<typeof app>()).toThrow("give options.fetch");
  } finally {
    globalThis.fetch = saved;
  }
});

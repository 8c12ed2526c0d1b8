import { alt, route, text, toApplication, type Reply } from "../src";
import { startServer, type TestServer } from "./helpers/server";

// What the node adapter does when a reply cannot be written: the client gets an answer, onError hears
// of it, and the server goes on serving.
describe("toApplication: replies that cannot be written", () => {
  let server: TestServer;
  const errors: unknown[] = [];

  beforeAll(async () => {
    const badBody = (): Reply => ({ ...text("x"), body: 42 as never }); // a hand-made reply with a body node cannot send
    const tree = alt(
      route("GET /bad-body", badBody),
      route("GET /ok", () => "fine"),
    );
    server = await startServer(toApplication(tree, { onError: (e) => errors.push(e) }));
  });
  afterAll(() => server.close());

  test("a body node:http refuses gives a 500, reported to onError; the next request is served", async () => {
    const res = await fetch(`${server.url}/bad-body`);
    expect(res.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).name).toBe("TypeError"); // thrown by node:http, from another realm than jest's
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
  });

  test("checked headers are frozen, so they cannot be made unsendable after the check", () => {
    const r = text("x", { headers: { "x-a": "1" } });
    expect(Object.isFrozen(r.headers)).toBe(true);
    expect(() => {
      (r.headers as Record<string, string>)["bad name"] = "v";
    }).toThrow(TypeError);
  });
});

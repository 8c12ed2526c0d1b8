import { type ClientOptions, type RouteNode, testFetch, toApplication } from "../../src";
import { startServer, type TestServer } from "./server";

/**
 * Serves `app` on node:http for the enclosing describe block; the two ways to reach it (over HTTP, in
 * memory), as test.each rows of the client options to use.
 */
export function reachedTwoWays(app: RouteNode): [string, () => ClientOptions][] {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(toApplication(app));
  });
  afterAll(() => server.close());
  return [
    ["over HTTP", () => ({ baseUrl: server.url })],
    ["in memory", () => ({ fetch: testFetch(app) })],
  ];
}

import type { PipelineOptions } from "../pipeline.js";
import { testClient } from "../testing.js";
import type { RouteNode } from "../tree.js";
import type { ClientFetch } from "./transport.js";

/**
 * A Fetch-shaped function that runs `tree` in memory (through `testClient`, the same pipeline as every
 * adapter, no socket): the transport for tests of a typed client. The URL's origin is ignored.
 */
export function testFetch(tree: RouteNode, options?: PipelineOptions): ClientFetch {
  const app = testClient(tree, options);
  return async (url, init) => {
    const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "") || "/";
    const res = await app.request({
      method: init.method,
      url: target,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    return {
      status: res.status,
      headers: {
        get: (name: string) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
        },
      },
      text: async () => res.body,
      arrayBuffer: async () => res.bytes.slice().buffer as ArrayBuffer,
    };
  };
}

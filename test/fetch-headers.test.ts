import * as lib from "../src";
import { toFetch } from "../src/adapters/fetch";
import { probeSharedHeaders } from "./fixtures/fetch-headers-probe.cjs";
import { fixtureServedOn } from "./shared/runtimes";

/*
 * On Bun the Fetch adapter hands the default headers of `json()` and `text()` replies to `Response` as
 * one `Headers` each, made once (Bun copies a `Headers` faster than it reads a record). A response's
 * headers must stay its own all the same: one changed after it was made leaves the next untouched.
 * Checked on Node in process, and on Bun and Deno with the built package.
 */

const EXPECTED = Object.fromEntries(
  [
    ["/json", "application/json; charset=utf-8", '{"ok":true}'],
    ["/created", "application/json; charset=utf-8", '{"ok":true}'],
    ["/text", "text/plain; charset=utf-8", "hello"],
  ].map(([path, type, body]) => [path, { first: ["yes", "changed/type"], second: [null, type, body] }]),
);

test("Node: a response's headers changed leave the next response's alone", async () => {
  expect(await probeSharedHeaders(lib, toFetch)).toEqual(EXPECTED);
});

describe.each(["bun", "deno"] as const)("%s", (runtime) => {
  const url = fixtureServedOn(runtime, "fetch-headers-serve.mjs");

  test("a response's headers changed leave the next response's alone", async () => {
    expect(await (await fetch(`${url()}/probe`)).json()).toEqual(EXPECTED);
  });
});

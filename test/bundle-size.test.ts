import { bundleApp } from "../bench/lib/bundle.js";

/*
 * The edge bundle (issue 27): a minimal Fetch app — `route`, `alt`, `toFetch`, two routes — bundled by
 * esbuild from the built package by name, as a Workers user bundles it (minified, platform neutral, ES
 * module), with `toFetch` from each Fetch entry: `switchyard-router/edge` (the minimal Fetch app: the
 * interpreter, no form reader) and `switchyard-router/fetch` (the compiled dispatcher and the form
 * reader by default). The tools over the tree and the optional features must stay out of it when the
 * app does not use them, and its size must stay within each entry's budget. The optional peers are not
 * installed by such an app, so they are left out (multipasta, loaded by `import()` on the first
 * multipart read).
 */

/**
 * Minified bytes the minimal app may weigh, by entry: the edge entry's is issue 27's target, 30 KB
 * (30,000 bytes), the full entry's just above what it reaches; see README.md, "Bundle size on the
 * edge", and BENCHMARKS.md.
 */
const BUDGETS = { edge: 30_000, fetch: 72 * 1024 } as const;

const minimalApp = (entry: keyof typeof BUDGETS) => `
import { alt, route } from "switchyard-router";
import { toFetch } from "switchyard-router/${entry}";
export default {
  fetch: toFetch(alt(route("GET /", () => "hello"), route("GET /users/id:Int", (req) => ({ id: req.vars.id })))),
};
`;

/** Modules a minimal app never needs: each a tool or feature it does not use. */
const UNUSED = [
  "src/sse/",
  // pathVar's reading of a Standard Schema: patterns build their nodes without pathVar
  "src/schema/path-type.js",
  "src/redirect.js",
  "src/cookies/sign.js",
  "src/cookies/read.js",
  "src/params.js",
  "src/validate/body.js",
  "src/validate/query.js",
  "src/validate/json-body.js",
  "src/schema/validate.js",
  "src/forms/fields.js",
  "src/forms/object.js",
  "src/adapters/express.js",
  "src/adapters/koa.js",
  "src/tools/shadow.js",
  "src/tools/listing.js",
  "src/tools/method-fallbacks.js",
  "src/tools/allow.js",
  "src/tools/openapi.js",
  "src/tools/url.js",
  "src/docs/",
  "src/client/",
  "src/middleware/",
  "src/testing.js",
  "src/adapters/node",
  // what pipeline() and interpret() make of a caller's request: adapters hand over a reader and a source
  "src/input.js",
  "src/headers.js",
  // what the path types tell the tools
  "src/parsers/facts.js",
];

/** What each entry leaves out besides: the edge one the form code and the compiler, the full one the interpreter. */
const LEFT_OUT = { edge: ["src/forms/", "src/dispatch/compile/"], fetch: ["src/dispatch/interpret.js"] } as const;

test.each(Object.keys(BUDGETS) as (keyof typeof BUDGETS)[])(
  "the minimal Fetch app from switchyard-router/%s bundles within its budget, without the tools it does not use",
  async (entry) => {
    const { bytes: output, gzip, inputs } = await bundleApp(minimalApp(entry));
    const bytes = output.length;
    console.log(`minimal Fetch app (${entry}): ${bytes} bytes minified, ${gzip} gzip (budget ${BUDGETS[entry]})`);
    const unused = [...UNUSED, ...LEFT_OUT[entry]];
    expect(inputs.filter((file) => unused.some((left) => file.includes(left)))).toEqual([]);
    expect(bytes).toBeLessThanOrEqual(BUDGETS[entry]);
  },
);

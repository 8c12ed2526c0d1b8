/**
 * The controllers sample as a Cloudflare Worker: the same route tree, served by the Fetch adapter.
 * Built by build.js (tsc for the decorators' metadata, then esbuild); wrangler.toml deploys the bundle.
 */
import "reflect-metadata"; // tsyringe needs it before it loads
import { type FetchHandler, toFetch } from "switchyard-router/fetch";
import { createApp } from "../controllers/app";

/**
 * Built once per isolate. The sample's user store lives in the isolate's memory, so each isolate has
 * its own: a real app keeps its data in a store outside the worker (D1, KV, a database).
 */
const fetch: FetchHandler = toFetch(createApp());

export default { fetch };

/**
 * The controllers sample as a Cloudflare Worker: the same route tree, served by the edge entry's Fetch
 * adapter. Built by build.js (tsc for the decorators' metadata, then esbuild); wrangler.toml deploys
 * the bundle.
 */
import "reflect-metadata"; // tsyringe needs it before it loads
import * as classTransformer from "class-transformer";
import * as classValidator from "class-validator";
import { formReader } from "switchyard-router";
import { provideLibraries } from "switchyard-router/decorators";
import { type FetchHandler, toFetch } from "switchyard-router/edge";
import { createApp } from "../controllers/app";

// a bundle holds the decorators' optional peers only when the app imports them: hand them over
provideLibraries({ "class-validator": classValidator, "class-transformer": classTransformer });

/**
 * Built once per isolate. The sample's user store lives in the isolate's memory, so each isolate has
 * its own: a real app keeps its data in a store outside the worker (D1, KV, a database). The edge
 * entry builds no compiled dispatcher (workerd refuses code generation anyway); the media routes read
 * uploads, so the form reader is handed over.
 */
const fetch: FetchHandler = toFetch(createApp(), { forms: formReader });

export default { fetch };

/*
 * The framework benchmark's API as a functional app validated by a Standard Schema (zod) — what the Hono
 * app validates with — and no decorators: the like-for-like column beside Hono's cold start on Bun.
 */
import { body } from "switchyard-router";
import { z } from "zod";
import { functionalApi } from "./functional-routes.js";

const CreateUser = z.object({ name: z.string().min(1).max(40), age: z.number().int().min(0) });

/** The whole API: the three routes, then the filler routes. */
export const app = functionalApi((req) => body(req, CreateUser));

// Types of sse-silent.cjs, for the TypeScript tests that use it.
import type * as Library from "../../src/index.js";

/** Resolves when `signal` aborts (never rejects). */
export declare const aborted: (signal: AbortSignal) => Promise<void>;

/** GET /silent (never yields; heartbeats every `hb` ms if given) and GET /first-then-silent. */
export declare function silentRoutes(
  lib: Pick<typeof Library, "route" | "sse">,
  countCleanup: (key: string) => void,
): Library.Route[];

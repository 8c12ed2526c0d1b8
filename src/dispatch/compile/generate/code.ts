/*
 * What the three generators (walk.ts, static-switch.ts, front.ts) share: the line budget of one
 * automaton, and making a function of generated source where the runtime allows it.
 */

/**
 * Lines of generated code one automaton may still have (all its methods, walks and static paths
 * together): each generated function warms up on its own, and many large ones made a 516-route
 * table slower than its table walk (notes/issue-12.md, round 2). Generators take what they use.
 */
export interface CodeBudget {
  lines: number;
}

/**
 * Told the parameters and body of every function generated, once it is made: how the printer
 * (explain.ts) sees the code `compile` runs. `compile` passes none, and keeps no source.
 */
export type SourceSink = (parameters: readonly string[], body: string) => void;

let generationAllowed: boolean | undefined;

/**
 * Whether this runtime makes functions of source at all (not Cloudflare Workers, nor a page under a CSP
 * without `unsafe-eval`), asked once: the generators check it first, so that where it is forbidden no
 * source is written only to be refused (the tables answer, the same).
 */
export function codeGenerationAllowed(): boolean {
  if (generationAllowed === undefined) {
    try {
      generationAllowed = typeof new Function("return 1") === "function";
    } catch {
      generationAllowed = false;
    }
  }
  return generationAllowed;
}

/**
 * `new Function(...parameters, body)`, or null where the runtime forbids code generation (Cloudflare
 * Workers, a CSP without `unsafe-eval`): then the caller keeps its tables, which answer the same.
 */
export function functionOf<F>(parameters: readonly string[], body: string, sink: SourceSink | undefined): F | null {
  let made: F;
  try {
    made = new Function(...parameters, body) as F;
  } catch {
    return null;
  }
  sink?.(parameters, body);
  return made;
}

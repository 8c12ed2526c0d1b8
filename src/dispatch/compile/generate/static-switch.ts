import { NONE } from "../answers.js";
import type { StaticLookup } from "../run/entry.js";
import { type CodeBudget, codeGenerationAllowed, functionOf, type SourceSink } from "./code.js";

/**
 * Generated code has a cost of its own: each function warms up on its own, so a large one stays
 * cold longer than the table it would replace. Beyond this many lines the table answers.
 */
const MOST_LINES = 300;

/**
 * The whole static paths of one method as generated code: a `switch` on the length, then on the
 * character that best tells the paths of that length apart, then one `===` per path, so a request
 * path is read at two places and compared once, with no hashing. Null where the runtime forbids
 * code generation (Cloudflare Workers, CSP) or the code would pass {@link MOST_LINES} or what is
 * left of `budget` (which it then takes from); the caller then keeps its table (run/static-paths.ts).
 * Paths enter the code only as JSON string literals, routes as integers.
 */
export function generateStaticSwitch(
  paths: ReadonlyMap<string, number>,
  budget: CodeBudget = { lines: MOST_LINES },
  sink?: SourceSink,
): StaticLookup | null {
  if (!codeGenerationAllowed()) return null;
  const most = Math.min(MOST_LINES, budget.lines);
  const byLength = new Map<number, string[]>();
  for (const path of paths.keys()) {
    let group = byLength.get(path.length);
    if (group === undefined) byLength.set(path.length, (group = []));
    group.push(path);
  }
  const lines = ["switch (p.length) {"];
  for (const [length, group] of byLength) {
    lines.push(`case ${length}:`);
    if (group.length === 1) {
      lines.push(`return p === ${literal(group[0]!)} ? ${paths.get(group[0]!)!} : ${NONE};`);
      continue;
    }
    const at = telling(group);
    lines.push(`switch (p.charCodeAt(${at})) {`);
    const byCharacter = new Map<number, string[]>();
    for (const path of group) {
      const code = path.charCodeAt(at);
      let same = byCharacter.get(code);
      if (same === undefined) byCharacter.set(code, (same = []));
      same.push(path);
    }
    for (const [code, same] of byCharacter) {
      lines.push(`case ${code}:`);
      for (const path of same) lines.push(`if (p === ${literal(path)}) return ${paths.get(path)!};`);
      lines.push(`return ${NONE};`);
    }
    lines.push("}", `return ${NONE};`);
    if (lines.length > most) return null;
  }
  lines.push("}", `return ${NONE};`);
  if (lines.length > most) return null;
  const generated = functionOf<StaticLookup>(["p"], `"use strict";\n${lines.join("\n")}`, sink);
  if (generated !== null) budget.lines -= lines.length;
  return generated;
}

/** The index (past the leading `/`) where the paths, all of one length, have the most different characters. */
function telling(group: readonly string[]): number {
  let best = 1;
  let most = 0;
  for (let at = 1; at < group[0]!.length; at++) {
    const distinct = new Set(group.map((path) => path.charCodeAt(at))).size;
    if (distinct > most) {
      most = distinct;
      best = at;
    }
  }
  return best;
}

/**
 * A string literal for generated code: JSON, with the line separators escaped too (a JSON string
 * may hold them raw; older engines end a line there).
 */
function literal(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

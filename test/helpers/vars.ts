/**
 * What a vars object inherits: every property name (and symbol) found on its prototype chain, and
 * whether that chain is frozen (so nothing can be added to it later). The rule for `request.vars`
 * is `{ inherited: [], chainFrozen: true }`: nothing is inherited, now or later.
 */
export function inheritance(vars: object): { inherited: string[]; chainFrozen: boolean } {
  const inherited: string[] = [];
  let chainFrozen = true;
  for (
    let proto = Object.getPrototypeOf(vars) as object | null;
    proto !== null;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    inherited.push(...Object.getOwnPropertyNames(proto), ...Object.getOwnPropertySymbols(proto).map(String));
    if (!Object.isFrozen(proto)) chainFrozen = false;
  }
  return { inherited, chainFrozen };
}

/** What nothing-inherited vars report: see {@link inheritance}. */
export const INHERITS_NOTHING = { inherited: [], chainFrozen: true };

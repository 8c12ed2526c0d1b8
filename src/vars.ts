/*
 * The captured path variables a guard or handler receives (`request.vars`), as both dispatchers
 * build them. The rule: nothing is inherited. Every vars object has the same prototype, an empty,
 * frozen object that itself has no prototype, so `"toString" in vars` is false and any label
 * (`__proto__`, `constructor`, `toString`, `7`) is an own property that reads back its value. Each
 * guard or handler call gets an object of its own (writing to it is its own business: it never
 * throws and no other call sees it).
 *
 * Why not a null-prototype object: V8 keeps `Object.create(null)` objects in dictionary mode, and
 * building one cost more than the rest of a lookup. One small factory per label list (`Object.create`
 * of the shared prototype, then the fields in route order) gives a fast-mode object for a few
 * nanoseconds: half what a constructor per label list cost through `new` (10 vs 21 ns per object,
 * notes/issue-12.md, round 4). Why not frozen: `Object.freeze` costs more than building the object
 * (measured 35–40 ns per object).
 */

/** Captured path variables by label. */
export type VarsRecord = Readonly<Record<string, unknown>>;

/** Makes a new vars object of one label list from the values, given in the same order. */
export type VarsFactory = (...values: unknown[]) => VarsRecord;

/** The prototype of every vars object: empty, frozen, with no prototype of its own. */
export const VARS_PROTOTYPE: VarsRecord = Object.freeze(Object.create(null) as VarsRecord);

/**
 * A vars object with no variables, shared and frozen: only for a request that no route has claimed
 * yet. Guards and handlers receive one of their own.
 */
export const NO_VARS: VarsRecord = Object.freeze(Object.create(VARS_PROTOTYPE) as VarsRecord);

/**
 * The factory for `labels`: `shape(v0, v1, …)` is a new object with the labels as own, enumerable,
 * writable properties in that order (a repeated label keeps its first place and its last value, as
 * repeated assignment would). Generated code when the runtime allows it (named stores V8 can
 * inline); a loop of keyed stores on runtimes that forbid code generation (Cloudflare Workers, CSP).
 */
export function varsShape(labels: readonly string[]): VarsFactory {
  let node = SHAPES;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    let child = node.next.get(label);
    if (child === undefined) node.next.set(label, (child = new ShapeNode()));
    node = child;
  }
  return (node.shape ??= generated(labels) ?? looped(labels));
}

/** The factory of one label list (once made), and the lists that go on from it, by their next label. */
class ShapeNode {
  shape: VarsFactory | undefined = undefined;
  readonly next = new Map<string, ShapeNode>();
}

/**
 * Factories by label list, shared by every route and tree: routes with the same labels share
 * one factory, which then runs hot (hundreds of cold generated functions cost more than
 * the dictionary objects they replace). Label lists come from route trees, so this stays small.
 * A trie by label: finding a list's factory builds no key.
 */
const SHAPES = /* @__PURE__ */ new ShapeNode();

/**
 * `inherited`'s variables followed by `labels` with `values` (a later label of the same name
 * overrides the value, keeping the first place).
 */
export function extendVars(inherited: VarsRecord, labels: readonly string[], values: readonly unknown[]): VarsRecord {
  return varsShape([...Object.keys(inherited), ...labels])(...Object.values(inherited), ...values);
}

/** A copy of `vars` of its own, for one guard or handler call. */
export function copyVars(vars: VarsRecord): VarsRecord {
  return extendVars(vars, [], []);
}

/**
 * The interpreter's vars: a new object with `vars`' variables, then `label` (when given) set to `value`,
 * keeping the first place of a label already there. The rule as plainly as it can be written, with no
 * factory: the interpreter is the reference, and an edge bundle, which routes with it, carries none of
 * the factory code.
 */
export function varsWith(vars: VarsRecord, label?: string, value?: unknown): VarsRecord {
  const out = Object.create(VARS_PROTOTYPE) as Record<string, unknown>;
  for (const key of Object.keys(vars)) define(out, key, vars[key]);
  if (label !== undefined) define(out, label, value);
  return out;
}

/**
 * `const o = Object.create(P); o["a"] = arguments[0]; …; return o;`, or null where code generation is
 * not allowed. (`Object.create` of one prototype reuses one cached map: cheaper than `new` of a
 * constructor whose prototype is that object.)
 */
function generated(labels: readonly string[]): VarsFactory | null {
  const body = labels.map((label, i) => store(label, `v${i}`)).join("\n");
  try {
    const make = new Function(
      "P",
      `"use strict";\nreturn function vars(${labels.map((_, i) => `v${i}`).join(", ")}) {\nconst o = Object.create(P);\n${body}\nreturn o;\n};`,
    );
    return make(VARS_PROTOTYPE) as VarsFactory;
  } catch {
    return null;
  }
}

function looped(labels: readonly string[]): VarsFactory {
  const keys = labels.map(internalized);
  return (...values) => {
    const vars = Object.create(VARS_PROTOTYPE) as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) define(vars, keys[i]!, values[i]);
    return vars;
  };
}

/** One store in generated code; the label is a string literal, never code. */
function store(label: string, value: string): string {
  // `__proto__` is stored like any label (the prototype chain has no setter for it) but V8 gives
  // assignments to that name a special path: define it instead
  return label === "__proto__"
    ? `Object.defineProperty(o, "__proto__", { value: ${value}, writable: true, enumerable: true, configurable: true });`
    : `o[${JSON.stringify(label)}] = ${value};`;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * The same label as an internalized string. Labels are often slices of a pattern, and V8 stores a
 * non-internalized key through its slow runtime path (~15× slower).
 */
function internalized(label: string): string {
  return Object.keys({ [label]: true })[0]!;
}

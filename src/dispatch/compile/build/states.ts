import type { Chain } from "../../../chains.js";
import { NoParse, parseSegment, type PathParser } from "../../../parsers/parser.js";
import { Text } from "../../../parsers/text.js";
import { NONE } from "../answers.js";
import { NO_PARSERS, State } from "../run/state.js";

/*
 * The subset construction: the routes of one method, in first-match order, made into the states of
 * a deterministic automaton over path segments (see run/state.ts for what a state is). A state is
 * the set of routes still alive after `depth` segments; where a literal segment leads is the set
 * of routes wanting it (and the typed routes whose parser accepts it, in route order), where any
 * other segment leads is decided by the parsers of the typed routes.
 */

/**
 * The list of no route at all (NONE-terminated), shared: most states' `prefixRoutes`, many states'
 * `endRoutes` (not frozen: a frozen list has a map of its own, and the walk reads these lists).
 */
const NO_ROUTES: readonly number[] = [NONE];

/** A state still to link: its routes that want one more segment; the next one to link after it. */
interface Unlinked {
  readonly state: State;
  readonly onward: readonly number[];
  readonly below: Unlinked | null;
}

/**
 * Builds the states of one route set; equal route sets at equal depths share a state. Every state is
 * linked before {@link state} returns, except where more than a few parsers compete for a segment:
 * the states for their verdicts are built on first use, at request time, through this builder.
 */
export class StateBuilder {
  private readonly memo = new Map<string, State>();
  /** The states of one route alone (most states: a route's own tail), by `depth × routes + route`: no key to build. */
  private readonly alone = new Map<number, State>();
  private readonly verdicts = new Map<PathParser<unknown>, Map<string, boolean>>();
  /**
   * States made but not linked yet, each with the routes that want one more segment: states are
   * linked in turn by one loop, not by recursion (deep recursion here made large compiled code).
   */
  private unlinked: Unlinked | null = null;
  private linking = false;

  constructor(private readonly chains: readonly Chain[]) {}

  /** The state where the routes `ids` (ascending) are alive after `depth` segments, linked, and every state it leads to. */
  state(depth: number, ids: readonly number[]): State | null {
    const state = this.find(depth, ids);
    // called while linking (a state's mask states): the loop below is running already
    if (this.linking) return state;
    this.linking = true;
    try {
      for (let next = this.unlinked; next !== null; next = this.unlinked) {
        this.unlinked = next.below;
        this.link(next.state, next.onward);
      }
    } finally {
      this.linking = false;
    }
    return state;
  }

  /** The state of `ids` after `depth` segments, made (and left to link) when there is none yet. */
  private find(depth: number, ids: readonly number[]): State | null {
    if (ids.length === 0) return null;
    if (ids.length > 1) return this.findMany(depth, ids);
    const key = depth * this.chains.length + ids[0]!;
    let state = this.alone.get(key);
    if (state === undefined) this.alone.set(key, (state = this.buildOne(depth, ids)));
    return state;
  }

  /** {@link find} for two routes or more (fewer states, found by a key spelling the routes). */
  private findMany(depth: number, ids: readonly number[]): State {
    const key = `${depth}:${ids.join(",")}`;
    let state = this.memo.get(key);
    if (state === undefined) this.memo.set(key, (state = this.buildMany(depth, ids)));
    return state;
  }

  /** The state of two routes or more (`ids`) after `depth` segments, left to link. */
  private buildMany(depth: number, ids: readonly number[]): State {
    let prefix: number[] | null = null;
    let end: number[] | null = null;
    let onward: number[] | null = null;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const chain = this.chains[id]!;
      if (chain.tests.length > depth) (onward ??= []).push(id);
      else {
        (end ??= []).push(id);
        if (!chain.exact) (prefix ??= []).push(id);
      }
    }
    const state = new State(depth, terminated(prefix), terminated(end), onward !== null ? onward[0]! : NONE);
    if (onward !== null) this.toLink(state, onward);
    return state;
  }

  private toLink(state: State, onward: readonly number[]): void {
    this.unlinked = { state, onward, below: this.unlinked };
  }

  /** {@link buildMany} for one route (`alone`, a list of it): the most common state, made without sorting routes into lists. */
  private buildOne(depth: number, alone: readonly number[]): State {
    const id = alone[0]!;
    const chain = this.chains[id]!;
    if (chain.tests.length <= depth) {
      const end = [id, NONE];
      return new State(depth, chain.exact ? NO_ROUTES : end, end, NONE);
    }
    const state = new State(depth, NO_ROUTES, NO_ROUTES, id);
    this.toLink(state, alone);
    return state;
  }

  /** Sets the transitions of `state` for the routes `onward` that want one more segment. */
  private link(state: State, onward: readonly number[]): void {
    const depth = state.depth;
    if (onward.length === 1) {
      this.linkOne(state, depth, onward);
      return;
    }
    // the literals wanted next, in order, each with its routes; the routes wanting a typed segment
    const literals: string[] = [];
    const groups: number[][] = [];
    const groupOf = new Map<string, number[]>();
    const typed: number[] = [];
    for (let k = 0; k < onward.length; k++) {
      const id = onward[k]!;
      const test = this.chains[id]!.tests[depth]!;
      if (typeof test !== "string") typed.push(id);
      else {
        const ids = groupOf.get(test);
        if (ids !== undefined) ids.push(id);
        else {
          const group = [id];
          groupOf.set(test, group);
          literals.push(test);
          groups.push(group);
        }
      }
    }
    if (typed.length > 0 && literals.length > 0) this.followLiterals(depth, typed, literals, groups);
    if (literals.length > 0) this.linkLiterals(state, depth, literals, groups);
    // with no typed route, every other segment leads nowhere, as a new state has it
    if (typed.length > 0) this.linkOthers(state, depth, typed);
  }

  /** Sets where each literal leads: to the state of its routes. */
  private linkLiterals(
    state: State,
    depth: number,
    literals: readonly string[],
    groups: readonly (readonly number[])[],
  ): void {
    const states = new Array<State | null>(literals.length);
    for (let i = 0; i < literals.length; i++) states[i] = this.find(depth + 1, groups[i]!);
    state.setLiterals(literals, states);
  }

  /** A typed route also follows every literal its parser accepts: it joins that literal's routes, in route order. */
  private followLiterals(
    depth: number,
    typed: readonly number[],
    literals: readonly string[],
    groups: number[][],
  ): void {
    for (let i = 0; i < literals.length; i++) {
      const ids = groups[i]!;
      for (let k = 0; k < typed.length; k++) {
        const id = typed[k]!;
        if (this.accepts(this.parserAt(id, depth), literals[i]!)) insertAscending(ids, id);
      }
    }
  }

  /** Sets where a segment that is no literal leads, for the routes `typed` that want a typed segment. */
  private linkOthers(state: State, depth: number, typed: readonly number[]): void {
    // the parsers that decide (`Text` accepts every segment)
    const parsers: PathParser<unknown>[] = [];
    for (const id of typed) {
      const parser = this.parserAt(id, depth);
      if (parser !== Text && !parsers.includes(parser)) parsers.push(parser);
    }
    if (parsers.length === 0) {
      state.setOthers(NO_PARSERS, this.find(depth + 1, typed));
      return;
    }
    state.setOthers(parsers, (mask) =>
      this.state(
        depth + 1,
        typed.filter((id) => {
          const parser = this.parserAt(id, depth);
          return parser === Text || (mask & (1 << parsers.indexOf(parser))) !== 0;
        }),
      ),
    );
  }

  /** {@link link} for one route (`alone`, a list of it) that wants one more segment: where it goes, and nowhere else. */
  private linkOne(state: State, depth: number, alone: readonly number[]): void {
    const test = this.chains[alone[0]!]!.tests[depth]!;
    const next = this.find(depth + 1, alone);
    if (typeof test === "string") state.setLiterals([test], [next]);
    else if (test.parser === Text) state.setOthers(NO_PARSERS, next);
    else state.setOthers([test.parser], (mask) => (mask === 0 ? null : next));
  }

  private parserAt(id: number, depth: number): PathParser<unknown> {
    return (this.chains[id]!.tests[depth] as { readonly parser: PathParser<unknown> }).parser;
  }

  private accepts(parser: PathParser<unknown>, literal: string): boolean {
    let byLiteral = this.verdicts.get(parser);
    if (byLiteral === undefined) this.verdicts.set(parser, (byLiteral = new Map()));
    let verdict = byLiteral.get(literal);
    if (verdict === undefined) byLiteral.set(literal, (verdict = parseSegment(parser, literal) !== NoParse));
    return verdict;
  }
}

/** Puts `id` into the ascending list `ids`, in its place (no sort: `sort` copies the list first). */
function insertAscending(ids: number[], id: number): void {
  let at = ids.length;
  ids.push(id);
  while (at > 0 && ids[at - 1]! > id) {
    ids[at] = ids[at - 1]!;
    at--;
  }
  ids[at] = id;
}

/**
 * `routes` followed by NONE, in a list of just that length (`slice`: a list grown by `push` keeps
 * room for more, and states keep theirs); the shared {@link NO_ROUTES} for none.
 */
function terminated(routes: number[] | null): readonly number[] {
  if (routes === null) return NO_ROUTES;
  routes.push(NONE);
  return routes.slice();
}

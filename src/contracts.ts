import { type ContractMode, contractWrapper } from "./contract-check.js";
import { runnable } from "./contract-schema.js";
import type { HandlerNode, Route, RouteNode } from "./tree.js";

/*
 * Response contracts (issue 24): a handler leaf whose `info.responses` declares a schema for a status
 * may have its JSON replies of that status checked (`"check"`) or cut down to the declared fields
 * (`"strip"`) at run time. The pipeline rewrites the tree once, before the dispatcher is built: a leaf
 * under a contract gets a wrapped handler, every other node stays as it is. The wrapping itself
 * (`contract-check.ts`) is attached to a leaf by what declares its `responses` (`described`), so an app
 * that declares none does not carry it (an edge bundle).
 */

export { ContractError, type ContractMode } from "./contract-check.js";

/**
 * `tree` with every handler leaf under a contract wrapped: the leaf's own `info.contract`, else `mode`
 * (the app's; `"off"` or `undefined`: none). The very tree when no leaf is under one.
 */
export function withContracts(tree: Route, mode: ContractMode | "off" | undefined): Route {
  if (mode !== undefined && mode !== "off" && mode !== "strip" && mode !== "check")
    throw new TypeError(`contracts must be "strip", "check" or "off", got ${JSON.stringify(mode)}`);
  const done = new Map<RouteNode, RouteNode>();
  const walk = (node: RouteNode): RouteNode => {
    let out = done.get(node);
    if (out !== undefined) return out;
    out = rewrite(node, mode === "off" ? undefined : mode, walk);
    done.set(node, out);
    return out;
  };
  return walk(tree as RouteNode) as Route;
}

function rewrite(node: RouteNode, mode: ContractMode | undefined, walk: (n: RouteNode) => RouteNode): RouteNode {
  if (node.kind === "handler") return contracted(node, mode);
  if (node.kind === "alt") {
    const alternatives = node.alternatives.map(walk);
    return alternatives.every((a, i) => a === node.alternatives[i]) ? node : Object.freeze({ ...node, alternatives });
  }
  const next = walk(node.next);
  return next === node.next ? node : (Object.freeze({ ...node, next }) as RouteNode);
}

function contracted(node: HandlerNode, mode: ContractMode | undefined): HandlerNode {
  const info = node.info;
  const chosen = info?.contract ?? mode;
  if (chosen === undefined || chosen === "off" || info?.responses === undefined) return node;
  if (chosen !== "strip" && chosen !== "check")
    throw new TypeError(`a route's contract must be "strip", "check" or "off", got ${JSON.stringify(chosen)}`);
  const wrap = contractWrapper(node);
  // a leaf made by hand: a contract it declares cannot be run, and must not be skipped silently (one of
  // JSON Schema objects alone checks nothing anyway)
  if (wrap === undefined && !Object.values(info.responses).some((response) => runnable(response.schema))) return node;
  if (wrap === undefined)
    throw new TypeError(
      `${info.name ?? "a handler"}: a leaf whose responses are under a contract must be made with described()`,
    );
  return wrap(node, chosen) as HandlerNode;
}

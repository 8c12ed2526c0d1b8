import { type InjectRequest, inject, type Route as Tree } from "../../src";

/** Injects `request` into `tree`; the status and the body parsed as JSON (`""` when empty). */
export async function call(tree: Tree, request: InjectRequest): Promise<{ status: number; body: unknown }> {
  const response = await inject(tree, request);
  return { status: response.status, body: response.body === "" ? "" : JSON.parse(response.body) };
}

/** A JSON POST of `value` to `url`. */
export const post = (url: string, value: unknown): InjectRequest => ({
  method: "POST",
  url,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/*
 * The layout ARCHITECTURE.md draws: no import circle between source files (a circle hides which file
 * depends on which), and the core never imports the decorators or the CLI.
 */

const root = path.resolve(__dirname, "..");

/** Every TypeScript source under `dirs`, as paths relative to the repository. */
function sources(...dirs: string[]): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(relative);
      else if (/\.c?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(relative);
    }
  };
  for (const dir of dirs) visit(dir);
  return found;
}

/** The repository files a source imports or re-exports by a relative specifier, type-only imports included. */
function importsOf(file: string, text: string, exists: (file: string) => boolean): string[] {
  const imported: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    const base = path.join(path.dirname(file), match[1]!).replace(/\.c?js$/, "");
    const target = [`${base}.ts`, `${base}.cts`, path.join(base, "index.ts")].find(exists);
    if (target !== undefined) imported.push(target);
  }
  return imported;
}

/** Every import circle in `graph`, each as the files on it, the first repeated last. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (state.get(file) === undefined) visit(file);
  return found;
}

function graphOf(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [file, importsOf(file, readFileSync(path.join(root, file), "utf8"), (f) => known.has(f))]),
  );
}

describe("the source layout", () => {
  const files = sources("src", "decorators", "cli");
  const graph = graphOf(files);

  test("the graph reads every source (the walk found the files and their imports)", () => {
    expect(files).toContain(path.join("src", "index.ts"));
    expect(graph.get(path.join("src", "index.ts"))).toContain(path.join("src", "tree.ts"));
  });

  test("no import circle between source files", () => {
    expect(circles(graph).map((circle) => circle.join(" -> "))).toEqual([]);
  });

  test("the core imports neither the decorators nor the CLI", () => {
    const crossing = [...graph]
      .filter(([file]) => file.startsWith(`src${path.sep}`))
      .flatMap(([file, imported]) =>
        imported.filter((t) => !t.startsWith(`src${path.sep}`)).map((t) => `${file} -> ${t}`),
      );
    expect(crossing).toEqual([]);
  });

  test("the circle finder finds a circle, type-only imports included", () => {
    const exists = (f: string) => ["a.ts", "b.ts", "c.ts"].includes(f);
    const planted = new Map([
      ["a.ts", importsOf("a.ts", 'import { b } from "./b.js";', exists)],
      ["b.ts", importsOf("b.ts", 'import type { C } from "./c.js";', exists)],
      ["c.ts", importsOf("c.ts", 'export { a } from "./a.js";', exists)],
    ]);
    expect(circles(planted)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
  });
});

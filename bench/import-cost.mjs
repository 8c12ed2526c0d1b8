// What importing each entry of the built package costs in a fresh process, on Node (and on Bun and
// Deno when BUN / DENO name their binaries):
//   npm run build && BUN=… DENO=… node bench/import-cost.mjs [ROUNDS]
// Every round starts one process per entry and runtime, interleaved; each times its own `import()` of
// the entry by package name and prints the milliseconds. The processes run in a scratch folder whose
// node_modules links the package (from the repository root, Bun would follow tsconfig's paths to src/).
// Prints the median and the fastest round of each.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "import-cost-"));
mkdirSync(join(scratch, "node_modules"));
symlinkSync(root, join(scratch, "node_modules/switchyard-router"), "dir");
const rounds = Number(process.argv[2] ?? 15);
const entries = [
  "switchyard-router",
  "switchyard-router/fetch",
  "switchyard-router/node",
  "switchyard-router/decorators",
];
const probe = (entry) =>
  `const t = performance.now(); await import(${JSON.stringify(entry)}); console.log(performance.now() - t);`;
const runtimes = [["node", process.execPath, ["--input-type=module", "-e"]]];
if (process.env.BUN) runtimes.push(["bun", process.env.BUN, ["-e"]]);
if (process.env.DENO) runtimes.push(["deno", process.env.DENO, ["eval"]]);

const times = {};
try {
  for (let r = 0; r < rounds; r++)
    for (const [name, binary, args] of runtimes)
      for (const entry of entries) {
        const out = execFileSync(binary, [...args, probe(entry)], { cwd: scratch, encoding: "utf8" });
        (times[`${name} ${entry}`] ??= []).push(Number(out.trim()));
      }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [key, xs] of Object.entries(times))
  console.log(`${key}: ${median(xs).toFixed(1)} ms (fastest ${Math.min(...xs).toFixed(1)})`);

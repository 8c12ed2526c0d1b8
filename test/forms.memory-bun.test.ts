import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { runtimePackage } from "./shared/runtimes";

/*
 * test/forms.memory.test.ts on Bun, through the Fetch adapter: a 256 MiB multipart upload saved by a
 * handler to /dev/null raises Bun's peak RSS by a few MB, as reading the same body raw does.
 * bench/upload-memory.js measures it (`--mib 1024` for the 1 GiB figure, by hand). Measured on Bun
 * 1.4.5: raw +19.4 MiB and multipart +21.3 MiB for 256 MiB; raw +22.6 to +27.6 MiB and multipart +20.7
 * to +27.6 MiB for 1 GiB (three runs). A file kept in memory would be the whole upload.
 */

const MIB = 1024 * 1024;
/** What the peak RSS may grow by over the idle process, as on node:http. */
const MEMORY_BOUND = 48 * MIB;
/** What the multipart reader may add over the raw read: nothing that grows with the upload. */
const OVER_RAW = 16 * MIB;

/** The figures bench/upload-memory.js prints with `--json`, on its last line. */
interface Figures {
  readonly bun: string;
  readonly raw: { readonly answer: string; readonly growth: number };
  readonly save: { readonly answer: string; readonly growth: number };
}

test("256 MiB streamed on Bun and saved to /dev/null: the peak RSS grows by a few MB, as for the raw body", async () => {
  const bun = join(dirname(require.resolve(`${runtimePackage("bun")}/package.json`)), "bin/bun");
  const script = join(__dirname, "../bench/upload-memory.js");
  const { stdout } = await promisify(execFile)(process.execPath, [script, "--mib", "256", "--json", "--bun", bun], {
    timeout: 110_000,
  });
  console.log(`forms.memory-bun:\n${stdout}`);
  const figures = JSON.parse(stdout.trim().split("\n").at(-1)!) as Figures;
  expect(figures.raw.answer).toBe("raw");
  expect(JSON.parse(figures.save.answer)).toEqual({ files: [{ name: "big.bin", size: 256 * MIB }] });
  expect(figures.save.growth).toBeLessThan(MEMORY_BOUND);
  // the parser adds nothing that grows with the upload to what Bun keeps of the chunks in flight
  expect(figures.save.growth).toBeLessThan(figures.raw.growth + OVER_RAW);
}, 120_000);

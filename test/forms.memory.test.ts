import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { uploadBigFile } from "./shared/big-upload.cjs";

/*
 * A big upload streams: a multipart file of 256 MiB (FORMS_UPLOAD_MIB=1024 for the 1 GiB run, by
 * hand), saved by the handler to /dev/null, raises the server's RSS by a few MB at most, whatever its
 * size; and a file over its limit is refused at the limit, the rest flowing by unkept. The server runs
 * in its own process (test/fixtures/forms-upload-server.cjs), so its memory is its own.
 */

const MIB = 1024 * 1024;
const SIZE = Number(process.env["FORMS_UPLOAD_MIB"] ?? 256) * MIB;
/**
 * What the peak RSS may grow by over the idle process. Reading the same upload raw (`req.stream()`, no
 * parser) grows it by about as much: what node:http and the allocator keep of the 64 KiB chunks in
 * flight before a collection (measured: raw +19.6 MiB and multipart +14.6 MiB for 256 MiB; raw +23.9
 * MiB and multipart +28.8 MiB for 1 GiB; see the log lines). A file kept in memory would be the whole
 * upload.
 */
const MEMORY_BOUND = 48 * MIB;
/** What the multipart reader may add over the raw read: nothing that grows with the upload. */
const OVER_RAW = 16 * MIB;

let child: ChildProcess;
let port: number;
beforeAll(async () => {
  child = spawn(process.execPath, ["--expose-gc", path.join(__dirname, "fixtures/forms-upload-server.cjs")], {
    cwd: path.resolve(__dirname, ".."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once("exit", (code) => reject(new Error(`the upload server exited with ${code}`)));
  });
});
afterAll(() => {
  child.kill();
});

const memory = async (): Promise<{ rss: number; peak: number }> =>
  (await (await fetch(`http://127.0.0.1:${port}/rss`)).json()) as { rss: number; peak: number };

/** `uploadBigFile` to this suite's server. */
const upload = (target: string, size: number): Promise<{ status: number; body: string }> =>
  uploadBigFile(port, target, size);

test("a warm-up upload (the first one loads the parser and grows RSS by itself)", async () => {
  expect(await upload("/save", 8 * MIB)).toEqual({
    status: 200,
    body: JSON.stringify({ files: [{ name: "big.bin", size: 8 * MIB }] }),
  });
});

/** `upload` to `target`, with the server's RSS before and its peak while the upload ran, logged. */
async function measured(
  target: string,
  size: number,
): Promise<{ answer: { status: number; body: string }; growth: number }> {
  const before = await memory();
  const started = performance.now();
  const answer = await upload(target, size);
  const seconds = (performance.now() - started) / 1000;
  const after = await memory();
  const growth = after.peak - before.rss;
  console.log(
    `forms.memory ${target}: ${size / MIB} MiB in ${seconds.toFixed(1)} s; RSS before ${(before.rss / MIB).toFixed(1)} MiB, peak during ${(after.peak / MIB).toFixed(1)} MiB (+${(growth / MIB).toFixed(1)} MiB), after ${(after.rss / MIB).toFixed(1)} MiB`,
  );
  return { answer, growth };
}

test(`${SIZE / MIB} MiB streamed and saved to /dev/null: the server's peak RSS grows by a few MB, as for the raw body`, async () => {
  const raw = await measured("/raw", SIZE);
  expect(raw.answer.status).toBe(200);
  const parsed = await measured("/save", SIZE);
  expect(parsed.answer).toEqual({
    status: 200,
    body: JSON.stringify({ files: [{ name: "big.bin", size: SIZE }] }),
  });
  expect(parsed.growth).toBeLessThan(MEMORY_BOUND);
  // the parser adds nothing that grows with the upload to what node:http keeps of the chunks in flight
  expect(parsed.growth).toBeLessThan(raw.growth + OVER_RAW);
}, 120_000);

test("a file over its limit: 413 at the limit, the rest of a 256 MiB upload not kept", async () => {
  const before = await memory();
  const answer = await upload("/limited", 256 * MIB);
  const after = await memory();
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toMatchObject({ limit: { name: "fileBytes", value: MIB } });
  expect(after.peak - before.rss).toBeLessThan(MEMORY_BOUND);
}, 60_000);

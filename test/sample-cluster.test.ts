import { type ChildProcess, execFile, spawn } from "node:child_process";
import { request } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { eventually } from "./helpers/eventually";

/*
 * The cluster sample (samples/cluster), compiled by tsc and run as a user runs it, with 2 workers:
 * the requests spread over both, a killed worker is replaced, and the cluster stops cleanly — on
 * Ctrl-C (SIGINT to the whole process group) with a request in flight answered, and on SIGTERM to the
 * primary alone — leaving no process behind, as when the primary is killed outright.
 */

const root = path.resolve(__dirname, "..");
const run = promisify(execFile);

// compiling, and starting processes on a busy machine
jest.setTimeout(120_000);

/** A running cluster: its primary, and everything it printed so far. */
interface Cluster {
  readonly primary: ChildProcess;
  readonly port: () => number;
  readonly output: () => string;
  /** Resolves with the first match of `pattern` in the output (from `from` on), once it is printed. */
  readonly waitFor: (pattern: RegExp, from?: number) => Promise<RegExpExecArray>;
  /** Resolves with the primary's exit code. */
  readonly exited: Promise<number | null>;
}

const started: Cluster[] = [];

beforeAll(async () => {
  await run(
    process.execPath,
    [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "samples/cluster/tsconfig.json"],
    {
      cwd: root,
    },
  );
});

afterAll(() => {
  // a failed test may leave a cluster running: its pids, from what it printed
  for (const cluster of started) for (const pid of pidsIn(cluster.output())) killIfAlive(pid);
  for (const cluster of started) if (cluster.primary.pid !== undefined) killIfAlive(cluster.primary.pid);
});

/** Starts the cluster with `workers` workers in a process group of its own (as a terminal would). */
async function startCluster(workers: number): Promise<Cluster> {
  const primary = spawn(process.execPath, [path.join(root, "dist/samples-cluster/cluster/server.js")], {
    cwd: root,
    env: { ...process.env, WORKERS: String(workers), PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const waiting = new Set<() => void>();
  const collect = (chunk: string): void => {
    output += chunk;
    for (const check of waiting) check();
  };
  primary.stdout!.setEncoding("utf8").on("data", collect);
  primary.stderr!.setEncoding("utf8").on("data", collect);
  const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
  const waitFor = (pattern: RegExp, from = 0): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = pattern.exec(output.slice(from));
        if (found === null) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`${pattern} not printed within 30 s; the cluster printed:\n${output}`));
      }, 30_000);
      waiting.add(check);
      check();
    });
  const cluster: Cluster = { primary, port: () => 0, output: () => output, waitFor, exited };
  started.push(cluster);
  const listening = await waitFor(/cluster of \d+ listening on http:\/\/127\.0\.0\.1:(\d+)\//);
  return { ...cluster, port: () => Number(listening[1]) };
}

/** The pids of the workers that said they listen, in the order they did. */
function pidsIn(output: string): number[] {
  return [...output.matchAll(/^worker (\d+) listening$/gm)].map((m) => Number(m[1]));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killIfAlive(pid: number): void {
  if (isAlive(pid)) process.kill(pid, "SIGKILL");
}

/** `GET /worker` on a connection of its own (so the cluster's scheduler picks a worker for each). */
function workerPid(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/worker", agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve((JSON.parse(body) as { pid: number }).pid));
    });
    req.on("error", reject).end();
  });
}

/** The distinct pids that answer `count` requests. */
async function answering(port: number, count = 20): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < count; i++) pids.add(await workerPid(port));
  return pids;
}

describe("the cluster sample with 2 workers", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(2);
  });

  test("both workers answer: the requests spread over them", async () => {
    const pids = pidsIn(cluster.output());
    expect(pids).toHaveLength(2);
    expect(await answering(cluster.port())).toEqual(new Set(pids));
  });

  test("a killed worker is replaced by a new one, which answers", async () => {
    const [killed, survivor] = pidsIn(cluster.output()) as [number, number];
    const from = cluster.output().length;
    process.kill(killed, "SIGKILL");
    await cluster.waitFor(new RegExp(`^worker ${killed} exited \\(SIGKILL\\): forking another$`, "m"), from);
    const replacement = Number((await cluster.waitFor(/^worker (\d+) listening$/m, from))[1]);
    expect([killed, survivor]).not.toContain(replacement);
    expect(await answering(cluster.port())).toEqual(new Set([survivor, replacement]));
  });

  test("Ctrl-C (SIGINT to the process group): a request in flight is answered, every process exits, none is forked", async () => {
    const { primary } = cluster;
    const pids = pidsIn(cluster.output());
    const from = cluster.output().length;
    // an upload whose body is still coming when the cluster is told to stop
    const boundary = "b";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const file = "x".repeat(1000);
    let answer = "";
    const upload = request({
      host: "127.0.0.1",
      port: cluster.port(),
      method: "POST",
      path: "/api/avatars",
      agent: false,
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": head.length + file.length + tail.length,
      },
    });
    const answered = new Promise<number>((resolve, reject) => {
      upload.on("response", (res) => {
        res.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
        res.on("end", () => resolve(res.statusCode!));
      });
      upload.on("error", reject);
    });
    upload.write(head + file.slice(0, 500));
    // the request has reached a worker when it answers another one on a new connection
    await workerPid(cluster.port());
    process.kill(-primary.pid!, "SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 500));
    upload.end(file.slice(500) + tail);
    expect(await answered).toBe(200);
    expect(JSON.parse(answer)).toMatchObject({ name: "a.png", size: 1000 });

    expect(await cluster.exited).toBe(0);
    expect(cluster.output().slice(from)).not.toMatch(/forking another|listening/);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});

test("SIGTERM to the primary alone stops the workers too", async () => {
  const cluster = await startCluster(2);
  const pids = pidsIn(cluster.output());
  expect(pids).toHaveLength(2);
  cluster.primary.kill("SIGTERM");
  expect(await cluster.exited).toBe(0);
  expect(pids.filter(isAlive)).toEqual([]);
});

test("a primary killed outright (SIGKILL) leaves no orphan: its workers exit when they lose it", async () => {
  const cluster = await startCluster(2);
  const pids = pidsIn(cluster.output());
  expect(pids).toHaveLength(2);
  cluster.primary.kill("SIGKILL");
  await cluster.exited;
  expect(
    await eventually(
      () => pids.filter(isAlive),
      (alive) => alive.length === 0,
      20_000,
    ),
  ).toEqual([]);
});

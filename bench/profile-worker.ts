/**
 * A CPU profile of a turn inside workerd, the runtime that bills a Worker's CPU: the bench's
 * `llamon-turn-worker` (NeonSaver through the Neon-protocol proxy), `postgres-saver-worker`
 * (`--official`) or the whole reference Worker, an A2A request per turn (`--whole`,
 * `llamon-worker`), with workerd's inspector on, profiled over the DevTools protocol. Runs
 * `--threads K` conversations of `--turns N` turns and profiles turns F…N of each
 * (`--from F`); the defaults (40 × 10 from 2) match the bench's turn-10 point, the median of
 * turns 2…10. Writes the V8 profile to `--out` and prints where the busy time went: self time
 * by package, and the inclusive share of the functions named most.
 *
 *   npx tsx bench/profile-worker.ts [--official | --whole] [--turns 10] [--from 2] [--threads 40]
 *     [--out /tmp/llamon-worker.cpuprofile] [--top 40]
 *
 * Samples are taken every 100 µs of wall time; idle samples are left out of the shares.
 * The profiler slows the code it samples: compare shares, not milliseconds, and use
 * `npm run bench` for the CPU per turn.
 */
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import WebSocket from "ws";
import { isWorkerAliased } from "./lib/worker-aliases.ts";

if (!(await isWorkerAliased())) {
  throw new Error(
    "bench/profile-worker.ts: the Worker bundle's langsmith alias did not take effect",
  );
}
const { migrate } = await import("../packages/cli/src/store/migrate.ts");
const { createTestDatabase } = await import("../test/helpers/pg.ts");
const { createWorkerRole } = await import("../test/helpers/backend.ts");
const { startChildProxy } = await import("./lib/proxy.ts");
const { turnWorkerSystem } = await import("./lib/turn-worker.ts");
const { workerSystem } = await import("./lib/worker-system.ts");

const { arg } = await import("./lib/args.ts");

const official = process.argv.includes("--official");
const whole = process.argv.includes("--whole");
const turns = Number(arg("--turns", "10"));
const from = Number(arg("--from", "2"));
const threads = Number(arg("--threads", "40"));
const top = Number(arg("--top", "40"));
const out = arg("--out", "/tmp/llamon-worker.cpuprofile");
if (!(from >= 1 && from <= turns && threads >= 1)) {
  throw new Error(
    `profile-worker: need 1 <= --from (${from}) <= --turns (${turns}), --threads >= 1`,
  );
}

/** A free local port (bound, read, closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  await new Promise<void>((ok) => server.close(() => ok()));
  if (address === null || typeof address === "string") throw new Error("no local port");
  return address.port;
}

/** A minimal DevTools-protocol client over the inspector's WebSocket. */
class Inspector {
  #next = 1;
  readonly #pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const msg = JSON.parse(String(data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      if (msg.id === undefined) return;
      const waiting = this.#pending.get(msg.id);
      this.#pending.delete(msg.id);
      if (msg.error !== undefined) waiting?.fail(new Error(msg.error.message));
      else waiting?.ok(msg.result);
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
      webSocketDebuggerUrl?: string;
    }[];
    const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
    if (url === undefined) throw new Error(`no inspector target on port ${port}`);
    const ws = new WebSocket(url);
    await new Promise<void>((ok, fail) => {
      ws.once("open", () => ok());
      ws.once("error", (e) => fail(new Error(`cannot open ${url}: ${e.message}`)));
    });
    return new Inspector(ws);
  }

  post<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((ok, fail) => {
      this.#pending.set(id, { ok: ok as (v: unknown) => void, fail });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** Where a frame's code comes from: an npm package, a repository folder, or the runtime. */
function origin(url: string): string {
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1] as string;
  const own = url.match(/(?:^|\/)(src|bench)\/(.+)$/);
  if (own) return `${own[1]}/${(own[2] as string).split("/").slice(0, 2).join("/")}`;
  return url === "" ? "(runtime)" : url.slice(-60);
}

function summarize(profile: Profile): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${origin(n.callFrame.url)}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const node = byId.get(id) as ProfileNode;
    if (node.callFrame.functionName === "(idle)") continue;
    busy++;
    const pkg = origin(node.callFrame.url);
    self.set(pkg, (self.get(pkg) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = label(byId.get(at) as ProfileNode);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
    }
  }
  const list = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`)
      .join("\n");
  return [
    `${busy} busy samples of ${profile.samples.length}`,
    "Self time by origin (share of busy samples):",
    list(self, 25),
    "Inclusive share by function:",
    list(inclusive, top),
  ].join("\n");
}

process.env.LLAMON_TEST_DSN ??= "postgresql://postgres@localhost:5432/postgres";
const db = await createTestDatabase("llamon_profile_worker");
await migrate({ connectionString: db.dsn });
const proxy = await startChildProxy(db.dsn);
const port = await freePort();
const worker = await createWorkerRole(db.dsn, "server");
const neonDsn = worker.neonDsn;
const system = whole
  ? await workerSystem(proxy, neonDsn, {}, port)
  : official
    ? await turnWorkerSystem("official", db.dsn, undefined, port)
    : await turnWorkerSystem("llamon", db.dsn, { proxy, dsn: neonDsn }, port);
let inspector: Inspector | undefined;
try {
  inspector = await Inspector.connect(port);
  await system.turn("warm-up", 1);
  const cpu: number[] = [];
  for (let t = 1; t <= threads; t++) {
    for (let i = 1; i <= turns; i++) {
      if (t === 1 && i === from) {
        await inspector.post("Profiler.enable");
        await inspector.post("Profiler.setSamplingInterval", { interval: 100 });
        await inspector.post("Profiler.start");
      }
      const r = await system.turn(`profiled-${t}`, i);
      if (i >= from) cpu.push(r.ownCpuMicros / 1000);
    }
  }
  const { profile } = await inspector.post<{ profile: Profile }>("Profiler.stop");
  await writeFile(out, JSON.stringify(profile));
  const median = [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)] ?? Number.NaN;
  process.stdout.write(
    `${system.name}: turns ${from}…${turns} of ${threads} conversation(s), profiled → ${out}\n` +
      `workerd CPU per request under the profiler: median ${median.toFixed(2)} ms\n${summarize(profile)}\n`,
  );
} finally {
  inspector?.close();
  await system.close();
  await proxy.close();
  await db.drop();
  await worker.drop();
}

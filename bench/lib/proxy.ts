/** Starts bench/proxy-child.ts (the Neon proxy in its own process) and reads its counters. */
import { type ChildProcess, fork } from "node:child_process";
import { resolve } from "node:path";

export interface ProxyCounters {
  requests: number;
  statements: number;
  requestBytes: number;
  /** Bytes of the answers: what the turns received from the database. */
  responseBytes: number;
  /** Milliseconds the database spent on the requests (wall time at the proxy). */
  databaseMs: number;
  failed: number;
}

export interface ChildProxy {
  readonly url: string;
  counters(): Promise<ProxyCounters>;
  close(): Promise<void>;
}

const CHILD = resolve(import.meta.dirname, "../proxy-child.ts");

export async function startChildProxy(upstreamDsn: string, poolSize = 5): Promise<ChildProxy> {
  const child: ChildProcess = fork(CHILD, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BENCH_UPSTREAM_DSN: upstreamDsn, BENCH_PROXY_POOL: String(poolSize) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.once("exit", (code) => reject(new Error(`the bench proxy exited (${code})`)));
    child.on("message", (m: { type: string; url?: string }) => {
      if (m.type === "ready" && m.url) resolveUrl(m.url);
    });
  });
  let next = 0;
  const waiting = new Map<number, (c: ProxyCounters) => void>();
  child.on("message", (m: { type: string; id?: number; stats?: ProxyCounters }) => {
    if (m.type === "stats" && m.id !== undefined && m.stats) {
      waiting.get(m.id)?.(m.stats);
      waiting.delete(m.id);
    }
  });
  return {
    url,
    counters() {
      const id = next++;
      return new Promise((r) => {
        waiting.set(id, r);
        child.send({ type: "stats", id });
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const gone = new Promise<void>((r) => child.once("exit", () => r()));
      child.send({ type: "close" });
      await gone;
    },
  };
}

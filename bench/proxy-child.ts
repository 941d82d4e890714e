/**
 * The Neon-protocol proxy in its own process, so its CPU (JSON, node-postgres) is not counted
 * as llamon's: the bench measures `process.cpuUsage()` of the process that runs the turn.
 *
 * Started by bench/lib/proxy.ts with an IPC channel. Messages:
 *   child → parent  { type: "ready", url }
 *   parent → child  { type: "stats", id }  → { type: "stats", id, stats }
 *   parent → child  { type: "close" }      → the child closes the proxy and exits
 */
import { startNeonProxy } from "../packages/cli/src/dev/neon-http-proxy.ts";

const upstreamDsn = process.env.BENCH_UPSTREAM_DSN;
if (!upstreamDsn || !process.send) {
  console.error("bench/proxy-child.ts is started by the bench (needs BENCH_UPSTREAM_DSN and IPC)");
  process.exit(2);
}
const send = (message: unknown) => process.send?.(message);

const stats = {
  requests: 0,
  statements: 0,
  requestBytes: 0,
  responseBytes: 0,
  databaseMs: 0,
  failed: 0,
};
const proxy = await startNeonProxy({
  upstreamDsn,
  poolSize: Number(process.env.BENCH_PROXY_POOL ?? 5),
  onRequest: (info) => {
    stats.requests += 1;
    stats.statements += info.statements;
    stats.requestBytes += info.requestBytes;
    stats.responseBytes += info.responseBytes;
    stats.databaseMs += info.databaseMs;
    if (info.status !== 200) stats.failed += 1;
  },
});

process.on("message", (message: { type: string; id?: number }) => {
  if (message.type === "stats") send({ type: "stats", id: message.id, stats: { ...stats } });
  if (message.type === "close") {
    void proxy.close().then(() => process.exit(0));
  }
});
process.on("disconnect", () => {
  void proxy.close().then(() => process.exit(0));
});
send({ type: "ready", url: proxy.url });

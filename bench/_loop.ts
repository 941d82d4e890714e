import { readdirSync, readFileSync } from "node:fs";

const { startBenchWorker } = await import("./lib/bench-worker.ts");
const { descendantsNamed, processCpuNanos } = await import("./lib/process-cpu.ts");
const w = await startBenchWorker("/tmp/loopw/wrangler.toml", {});
await (await w.fetch("http://x/?ms=1")).text();
const pids = descendantsNamed("workerd");
const snap = () => new Map(pids.map((p) => [p, processCpuNanos(p)]));
for (const ms of [0, 50]) {
  const a = snap();
  for (let i = 0; i < 5; i++) await (await w.fetch(`http://x/?ms=${ms}`)).text();
  await new Promise((r) => setTimeout(r, 100));
  const b = snap();
  console.log(
    `loop ${ms} ms:`,
    [...b]
      .map(([p, v]) => `${p}: ${((v - (a.get(p) ?? 0)) / 5 / 1e6).toFixed(2)} ms/request`)
      .join(", "),
    "pids in order",
    pids.join(","),
  );
}
await w.dispose();

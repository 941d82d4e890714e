/**
 * `npm run bench` — per-turn cost of conversation memory as the conversation grows, llamon
 * against the official LangGraph PostgresSaver in the same run.
 *
 *   npx tsx bench/run.ts [--turns 10,100,1000,10000] [--json] [--systems a,b] [--full]
 *                        [--all-lengths] [--no-write]
 *
 * For every system (bench/lib/systems.ts) one conversation runs on a fresh database of the
 * local Postgres server (LLAMON_BENCH_DSN, else LLAMON_TEST_DSN, else
 * postgresql://postgres@localhost:5432/postgres): llamon and llamon-worker to max(turns), the
 * others to at most 1000 turns unless --all-lengths. llamon goes through the Neon-protocol
 * proxy, which runs in its own process so its CPU is not counted as llamon's; llamon-worker's
 * CPU is the workerd process's. Printed: a table per conversation length, the ratios to the
 * baseline, the issues' targets (met or not), and with `--json` one JSON object on the last
 * line. (Turns up to 100 run for real; a later point N is reached by writing turns 1…N−50 in
 * one state update and running the last 50 for real — see bench/lib/run-conversation.ts;
 * `--full` runs all.) docs/performance.md gets the same tables between
 * its `bench:run` markers (unless --no-write).
 *
 * Every system runs with the Worker bundle's module aliases (bench/lib/worker-aliases.ts:
 * LangSmith's client replaced by llamon's shim, as in every deployed Worker), registered here
 * before anything else is loaded.
 */
import { isWorkerAliased } from "./lib/worker-aliases.ts";

if (!(await isWorkerAliased())) {
  throw new Error("bench/run.ts: the Worker bundle's langsmith alias did not take effect");
}
await import("./lib/run-main.ts");

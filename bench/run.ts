/**
 * `npm run bench` — per-turn cost of conversation memory as the conversation grows, llamon
 * against the official LangGraph PostgresSaver in the same run (issue 8).
 *
 *   npx tsx bench/run.ts [--turns 10,100,1000] [--json] [--systems a,b] [--full] [--no-write]
 *
 * For every system (bench/lib/systems.ts) one conversation of max(turns) turns runs on a fresh
 * database of the local Postgres server (LLAMON_BENCH_DSN, else LLAMON_TEST_DSN, else
 * postgresql://postgres@localhost:5432/postgres); llamon goes through the Neon-protocol proxy,
 * which runs in its own process so its CPU is not counted as llamon's. Printed: a table per
 * conversation length, the ratios to the baseline, the targets (met or not), and with
 * (Turns up to 100 run for real; a later point N is reached by writing turns 1…N−9 in one state
 * update and running N−8…N for real — see bench/lib/run-conversation.ts; `--full` runs all.)
 * `--json` one JSON object on the last line. docs/performance.md gets the same tables between
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

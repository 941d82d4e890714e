/**
 * `npm run bench:load` — the issue-8 load: 50 concurrent conversations × 20 turns against the
 * reference agent as users run it (`llamon run .`: wrangler dev, postgres backend, offline
 * model), measured from the client: throughput and p50/p95/p99 turn latency; then a check that
 * every message of every conversation is stored exactly once.
 *
 *   npx tsx bench/load.ts [--conversations 50] [--turns 20] [--json] [--no-write]
 *
 * Database: a fresh database on the local Postgres server when reachable, else the embedded
 * PGlite. Results go to docs/performance.md between its `bench:load` markers (unless
 * --no-write); with --json the last line is one JSON object.
 */

import { SERVER_DSN } from "../test/helpers/pg.ts";
import { startReferenceAgent } from "./lib/agent-process.ts";
import { writeDocSection } from "./lib/doc.ts";
import { formatSummary, runLoad, summarize, verifyStored } from "./lib/load.ts";
import { commandLine, describeMachine } from "./lib/machine.ts";

const AGENT_ID = "llamon-reference";

const round = (n: number) => Math.round(n * 10) / 10;

function parseArgs(argv: string[]) {
  const args = { conversations: 50, turns: 20, json: false, write: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const count = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a} takes a whole number ≥ 1`);
      return n;
    };
    if (a === "--conversations") args.conversations = count();
    else if (a === "--turns") args.turns = count();
    else if (a === "--json") args.json = true;
    else if (a === "--no-write") args.write = false;
    else
      throw new Error(
        `unknown argument ${a}; usage: bench/load.ts [--conversations 50] [--turns 20] [--json] [--no-write]`,
      );
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const shape = `${args.conversations} conversations × ${args.turns} turns`;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const machine = await describeMachine(SERVER_DSN).catch(() => describeMachine(undefined));
  log(`bench:load: starting the reference agent (llamon run .) …`);
  const agent = await startReferenceAgent();
  let summary: ReturnType<typeof summarize>;
  let problems: string[];
  try {
    log(`bench:load: ${agent.url}, ${agent.database} Postgres; ${shape} …`);
    const result = await runLoad({
      url: agent.url,
      conversations: args.conversations,
      turns: args.turns,
    });
    summary = summarize(result);
    if (result.errors.length > 0) {
      log(`bench:load: ${result.errors.length} turns failed; the agent's last output:`);
      log(agent.output().split("\n").slice(-60).join("\n"));
    }
    problems = [
      ...result.errors.map((e) => `${e.contextId} turn ${e.turn} failed: ${e.message}`),
      ...(await verifyStored(agent, AGENT_ID, result.conversations)),
    ];
  } finally {
    await agent.stop();
  }
  const stored =
    problems.length === 0
      ? `every message of every conversation stored exactly once (${summary.turns * 2} messages)`
      : `${problems.length} storage problems, first: ${problems.slice(0, 5).join("; ")}`;
  process.stdout.write(`${formatSummary(summary, shape)}\n  ${stored}\n`);
  if (args.write) {
    await writeDocSection(
      "load",
      [
        "## Load: concurrent conversations against `llamon run .`",
        "",
        "Produced by:",
        "",
        "```sh",
        commandLine("bench/load.ts"),
        "```",
        "",
        `Machine: ${machine}. Run ${new Date().toISOString()}. The reference agent under \`wrangler dev\` (postgres backend, offline model), ${shape}: every conversation sends its next message when the previous answer arrived; latency is measured at the client (HTTP request to answer).`,
        "",
        "| turns | failed | seconds | throughput (turns/s) | p50 ms | p95 ms | p99 ms | max ms |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        `| ${summary.turns} | ${summary.failed} | ${summary.seconds.toFixed(1)} | ${summary.throughput.toFixed(1)} | ${summary.p50.toFixed(0)} | ${summary.p95.toFixed(0)} | ${summary.p99.toFixed(0)} | ${summary.max.toFixed(0)} |`,
        "",
        `Stored: ${stored}.`,
      ].join("\n"),
    );
    log("bench:load: wrote docs/performance.md (section bench:load)");
  }
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({
        load: {
          conversations: args.conversations,
          turns_per_conversation: args.turns,
          turns: summary.turns,
          failed: summary.failed,
          seconds: round(summary.seconds),
          throughput_turns_per_s: round(summary.throughput),
          p50_ms: round(summary.p50),
          p95_ms: round(summary.p95),
          p99_ms: round(summary.p99),
          max_ms: round(summary.max),
          storage_problems: problems.length,
        },
      })}\n`,
    );
  }
  if (problems.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});

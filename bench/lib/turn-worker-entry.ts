/**
 * A Worker that runs the bench's turn alone — no A2A handling, no task records — with either
 * saver (bench/lib/turn-worker.ts starts it in workerd, `BENCH_SAVER`):
 *
 * - `official`: the official `@langchain/langgraph-checkpoint-postgres` PostgresSaver
 *   (durability "exit", the classic messages channel, as `postgres-saver-exit` in Node). A
 *   Worker cannot keep a database connection across requests, so each request opens one
 *   (node-postgres over `cloudflare:sockets`, through nodejs_compat) and closes it — what the
 *   official saver costs in a Worker without a connection pooler in front of it;
 * - `llamon`: NeonSaver over the Neon HTTP driver, exactly as the Worker's turn uses it (a new
 *   saver and db handle per request, the head compare-and-set, recall in the read batch).
 *
 * POST / {threadId, text, messageId} → 200 {reply} after one turn (runTurn).
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createLogger, silentSink } from "../../src/log.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { agent, memoryConfig } from "./bench-agent.ts";

interface Env {
  readonly BENCH_SAVER: "official" | "llamon";
  /** official: a node-postgres DSN; llamon: the Neon DSN and the proxy's endpoint. */
  readonly BENCH_DSN: string;
  readonly BENCH_NEON_ENDPOINT?: string;
  readonly BENCH_AGENT_ID: string;
}

const config = memoryConfig();
const log = createLogger({ sink: silentSink });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const body = (await request.json()) as { threadId: string; text: string; messageId: string };
    const base = { agent, config, model: new OfflineChatModel(), log };
    if (env.BENCH_SAVER === "llamon") {
      const db = createNeonDb({
        connectionString: env.BENCH_DSN,
        fetchEndpoint: env.BENCH_NEON_ENDPOINT,
      });
      const saver = new NeonSaver({ db, agentId: env.BENCH_AGENT_ID, guardHead: true });
      return answer({ ...base, checkpointer: saver }, body);
    }
    const pool = new pg.Pool({ connectionString: env.BENCH_DSN, max: 1 });
    try {
      const saver = new PostgresSaver(pool);
      return await answer({ ...base, checkpointer: saver, messagesStorage: "full" }, body);
    } finally {
      await pool.end();
    }
  },
};

async function answer(
  deps: TurnDeps,
  body: { threadId: string; text: string; messageId: string },
): Promise<Response> {
  try {
    const result = await runTurn(deps, body);
    return Response.json({ reply: result.reply });
  } catch (error) {
    return Response.json({ error: String(error) }, { status: 500 });
  }
}

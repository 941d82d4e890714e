/**
 * A Worker that runs the bench's turn with the official `@langchain/langgraph-checkpoint-postgres`
 * PostgresSaver (bench/lib/official-worker.ts starts it in workerd). A Worker cannot keep a
 * database connection across requests, so each request opens one (node-postgres over
 * `cloudflare:sockets`, through nodejs_compat) and closes it — what the official saver costs
 * in a Worker without a connection pooler in front of it.
 *
 * POST / {threadId, text, messageId} → 200 {reply} after one turn (runTurn, durability
 * "exit", the classic messages channel, as `postgres-saver-exit` runs in Node).
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { runTurn } from "../../src/agent/run-turn.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createLogger, silentSink } from "../../src/log.ts";
import { agent, memoryConfig } from "./bench-agent.ts";

interface Env {
  readonly BENCH_PG_DSN: string;
}

const config = memoryConfig();
const log = createLogger({ sink: silentSink });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const body = (await request.json()) as { threadId: string; text: string; messageId: string };
    const pool = new pg.Pool({ connectionString: env.BENCH_PG_DSN, max: 1 });
    try {
      const saver = new PostgresSaver(pool);
      const result = await runTurn(
        {
          agent,
          config,
          model: new OfflineChatModel(),
          checkpointer: saver,
          log,
          messagesStorage: "full",
        },
        body,
      );
      return Response.json({ reply: result.reply });
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 500 });
    } finally {
      await pool.end();
    }
  },
};

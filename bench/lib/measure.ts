/**
 * Instruments of the bench: a model that keeps its own CPU time (so it can be taken out of
 * the turn's), a pg pool that counts statements and wire bytes, and the bytes a thread
 * occupies in Postgres.
 */
import pg from "pg";
import { type OfflineCall, OfflineChatModel } from "../../src/llm/offline.ts";

/** CPU microseconds (user + system) of this process since `start`. */
export function cpuMicros(start?: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return u.user + u.system;
}

/**
 * The offline model, timing itself: `cpuMicros` is the CPU spent inside `invoke` (LangChain's
 * call plumbing and the offline reply), which the bench subtracts from the turn's CPU.
 * Its replies never carry the offline model's `recalled:` line (the recalled items it echoes,
 * so tests and `llamon chat` show recall at work): a real model's reply does not grow because
 * recall found something, and the prefilled turns' replies (built from the same model without
 * a recall block) have no such line either — with it, the stored replies of the real turns
 * would grow with the conversation, and the bytes read and written with them.
 * It keeps no record of its calls (the offline model's `calls`, which tests read): one model
 * serves a whole conversation here, and over thousands of turns that record would hold every
 * prompt it was sent — a heap growing with the conversation, whose garbage collection would
 * add to Node's CPU per turn (a Worker makes a model per request).
 */
export class TimedOfflineModel extends OfflineChatModel {
  cpuMicros = 0;

  override async invoke(
    ...args: Parameters<OfflineChatModel["invoke"]>
  ): ReturnType<OfflineChatModel["invoke"]> {
    const start = process.cpuUsage();
    try {
      const reply = await super.invoke(...args);
      if (typeof reply.content === "string" && reply.content.includes("\nrecalled: ")) {
        reply.content = reply.content
          .split("\n")
          .filter((line) => !line.startsWith("recalled: "))
          .join("\n");
      }
      return reply;
    } finally {
      (this.calls as OfflineCall[]).length = 0;
      this.cpuMicros += cpuMicros(start);
    }
  }
}

/**
 * Accumulates the CPU spent inside a checkpointer's methods (getTuple, put, putWrites, list):
 * the memory layer's share of a turn — serialisation, SQL building and the driver. While
 * calls overlap (LangGraph's default durability saves in the background while the next step
 * runs) the window is their union, so it may include some of that step's work too.
 */
export class SaverCpu {
  micros = 0;
  private active = 0;
  private start: NodeJS.CpuUsage | undefined;

  wrap<T extends object>(saver: T): T {
    const target = saver as Record<string, unknown>;
    for (const name of ["getTuple", "getDeltaChannelHistory", "put", "putWrites", "flushTurn"]) {
      const method = target[name];
      if (typeof method !== "function") continue;
      const bound = (method as (...args: unknown[]) => Promise<unknown>).bind(saver);
      target[name] = async (...args: unknown[]) => {
        this.enter();
        try {
          return await bound(...args);
        } finally {
          this.leave();
        }
      };
    }
    return saver;
  }

  private enter(): void {
    if (this.active++ === 0) this.start = process.cpuUsage();
  }

  private leave(): void {
    if (--this.active === 0 && this.start) this.micros += cpuMicros(this.start);
  }
}

export interface PoolCounters {
  statements: number;
  bytesWritten: number;
}

/**
 * A node-postgres pool for the official PostgresSaver that counts every statement sent (each
 * is one network round trip: node-postgres does not pipeline) and the bytes written to the
 * server's socket (the Postgres wire protocol: SQL text, parameters, framing).
 */
export function countingPool(connectionString: string): {
  pool: pg.Pool;
  counters(): PoolCounters;
} {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on("error", () => {});
  const sockets: { bytesWritten: number }[] = [];
  let statements = 0;
  pool.on("connect", (client) => {
    const stream = (client as unknown as { connection: { stream: { bytesWritten: number } } })
      .connection.stream;
    sockets.push(stream);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
      ...args: unknown[]
    ) => {
      statements += 1;
      return query(...args);
    };
  });
  return {
    pool,
    counters: () => ({
      statements,
      bytesWritten: sockets.reduce((sum, s) => sum + s.bytesWritten, 0),
    }),
  };
}

/**
 * Bytes a thread occupies: the stored size (pg_column_size, i.e. after TOAST compression) of
 * every column of its rows in the checkpoint tables, plus llamon's registry and memory rows.
 */
export async function storedBytes(
  client: pg.Client,
  checkpointThreadId: string,
  llamon?: { agentId: string; threadId: string },
): Promise<number> {
  const rowSize = (cols: string[]) => cols.map((c) => `coalesce(pg_column_size(${c}),0)`).join("+");
  const parts = [
    `SELECT coalesce(sum(${rowSize(["thread_id", "checkpoint_ns", "checkpoint_id", "parent_checkpoint_id", "type", "checkpoint", "metadata"])}),0) AS n FROM checkpoints WHERE thread_id = $1`,
    `SELECT coalesce(sum(${rowSize(["thread_id", "checkpoint_ns", "channel", "version", "type", "blob"])}),0) FROM checkpoint_blobs WHERE thread_id = $1`,
    `SELECT coalesce(sum(${rowSize(["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx", "channel", "type", "blob"])}),0) FROM checkpoint_writes WHERE thread_id = $1`,
  ];
  const params: string[] = [checkpointThreadId];
  if (llamon) {
    params.push(llamon.agentId, llamon.threadId);
    parts.push(
      `SELECT coalesce(sum(pg_column_size(t.*)),0) FROM llamon_threads t WHERE agent_id = $2 AND thread_id = $3`,
      `SELECT coalesce(sum(pg_column_size(m.*)),0) FROM persistent_memory m WHERE agent_id = $2 AND thread_id = $3`,
      // The transcript: the messages older than the live tail.
      `SELECT coalesce(sum(pg_column_size(x.*)),0) FROM llamon_messages x WHERE agent_id = $2 AND thread_id = $3`,
    );
  }
  const { rows } = await client.query<{ n: string }>(
    `SELECT sum(n)::text AS n FROM (${parts.join(" UNION ALL ")}) s(n)`,
    params,
  );
  return Number(rows[0]?.n ?? 0);
}

const NAMES = ["Mina", "Jisoo", "Hyun", "Alex", "Sam"];
const CITIES = ["Busan", "Seoul", "Daegu", "Incheon", "Jeju"];
const JOBS = ["nurse", "teacher", "pilot", "baker", "lawyer"];
const COLOURS = ["blue", "green", "red", "yellow", "purple"];

/**
 * The user message of turn `i` (about 100 characters, as a chat user types): a statement the
 * heuristic fact recall picks up (name, city, job, colour, in turn, with changing values, so
 * the facts row is updated too) and a question about the earlier conversation.
 */
export function userText(i: number): string {
  const k = Math.floor(i / 4) % 5;
  const fact = [
    `My name is ${NAMES[k]}.`,
    `I live in ${CITIES[k]}.`,
    `I work as a ${JOBS[k]}.`,
    `My favourite colour is ${COLOURS[k]}.`,
  ][i % 4];
  return `Turn ${i}: ${fact} Please keep that in mind and tell me what I said before this.`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

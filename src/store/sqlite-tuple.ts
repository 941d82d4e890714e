/**
 * The read side of SqliteSaver: a stored checkpoint row → a LangGraph CheckpointTuple, with
 * its blobs, its pending writes in writesSortKey order (task_path, task_id, idx) and, for
 * checkpoints before format v4, the parent's Send packets migrated into the TASKS channel
 * (what NeonSaver's SQL does in Postgres); and the delta channels' ancestor walk.
 */
import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type SerializerProtocol,
  TASKS,
} from "@langchain/langgraph-checkpoint";
import type { DeltaChainLink } from "./delta.ts";
import { assembleTuple } from "./saver-tuple.ts";
import {
  rows,
  SQ_SELECT_BLOBS,
  SQ_SELECT_DELTA_HISTORY,
  SQ_SELECT_SENDS,
  SQ_SELECT_WRITES,
  type SqliteExec,
  toBytes,
} from "./sqlite-sql.ts";

/** A row of the checkpoints table (JSON as text). */
export interface CheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint: string;
  metadata: string;
}

interface Stored {
  checkpoint: Omit<Checkpoint, "channel_values">;
  blobs: { channel: string; type: string; blob: unknown }[];
  writes: { task_id: string; channel: string; type: string; blob: unknown }[];
  sends: { type: string; blob: unknown }[];
}

/** Everything a row's tuple needs, read synchronously (one consistent view). */
function readStored(db: SqliteExec, row: CheckpointRow): Stored {
  const checkpoint = JSON.parse(row.checkpoint) as Omit<Checkpoint, "channel_values">;
  const at = [row.thread_id, row.checkpoint_ns] as const;
  const versions = Object.fromEntries(
    Object.entries(checkpoint.channel_versions ?? {}).map(([k, v]) => [k, String(v)]),
  );
  const migrateSends = checkpoint.v < 4 && row.parent_checkpoint_id !== null;
  return {
    checkpoint,
    blobs: rows(db, SQ_SELECT_BLOBS, ...at, JSON.stringify(versions)),
    writes: rows(db, SQ_SELECT_WRITES, ...at, row.checkpoint_id),
    sends: migrateSends ? rows(db, SQ_SELECT_SENDS, ...at, row.parent_checkpoint_id, TASKS) : [],
  };
}

/**
 * The tuple of a checkpoint row, under the caller's external `threadId`. `firstVersion`
 * is the saver's `getNextVersion(undefined)` (the TASKS version of an empty checkpoint).
 */
export async function readCheckpointTuple(
  db: SqliteExec,
  serde: SerializerProtocol,
  row: CheckpointRow,
  threadId: string,
  firstVersion: () => ChannelVersions[string],
): Promise<CheckpointTuple> {
  const stored = readStored(db, row);
  return assembleTuple(serde, {
    threadId,
    ns: row.checkpoint_ns,
    checkpointId: row.checkpoint_id,
    parentId: row.parent_checkpoint_id,
    checkpoint: stored.checkpoint,
    metadataJson: row.metadata,
    blobs: stored.blobs.map(
      ({ channel, type, blob }) => [channel, type, blob === null ? null : toBytes(blob)] as const,
    ),
    writes: stored.writes.map(
      ({ task_id, channel, type, blob }) => [task_id, channel, type, toBytes(blob)] as const,
    ),
    sends: stored.sends.map(({ type, blob }) => [type, toBytes(blob)] as const),
    firstVersion,
  });
}

/** A row of SQ_SELECT_DELTA_HISTORY: a link (kind 0), a seed (1) or a pending write (2). */
interface DeltaHistoryRow {
  depth: number;
  kind: number;
  task_id: string | null;
  channel: string | null;
  type: string | null;
  blob: unknown;
}

/**
 * The ancestor chain (parent first) that rebuilds `channels` of a checkpoint (the latest when
 * `checkpointId` is undefined), read in one statement; only the values it needs are
 * deserialised: the first stored value of each channel and the writes of the channels still
 * walked. Feed it to `assembleDeltaHistory`.
 */
export async function readDeltaChain(
  db: SqliteExec,
  serde: SerializerProtocol,
  at: { storageId: string; ns: string; checkpointId: string | undefined },
  channels: readonly string[],
): Promise<DeltaChainLink[]> {
  const found = rows<DeltaHistoryRow>(
    db,
    SQ_SELECT_DELTA_HISTORY,
    at.storageId,
    at.ns,
    at.checkpointId ?? null,
    JSON.stringify(channels),
  );
  const chain: { seeds: Map<string, unknown>; writes: CheckpointPendingWrite[] }[] = [];
  for (const row of found) {
    const kind = Number(row.kind);
    if (kind === 0) {
      chain.push({ seeds: new Map(), writes: [] });
      continue;
    }
    const link = chain[Number(row.depth) - 1];
    if (link === undefined) continue;
    const channel = row.channel as string;
    const value = await serde.loadsTyped(row.type as string, toBytes(row.blob));
    if (kind === 1) link.seeds.set(channel, value);
    else link.writes.push([row.task_id as string, channel, value]);
  }
  return chain;
}

/**
 * JSON containment like Postgres `jsonb @>` — NeonSaver's metadata filter semantics.
 * Undefined values in the filter are ignored (JSON.stringify drops them in Postgres too).
 */
export function jsonContains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.every((e) => actual.some((a) => jsonContains(a, e)));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(
      ([key, value]) => value === undefined || (key in record && jsonContains(record[key], value)),
    );
  }
  return actual === expected;
}

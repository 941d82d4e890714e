/**
 * Delta storage of a thread's messages: the `messages` channel is LangGraph's
 * `DeltaChannel` with `messagesDeltaReducer`, so a turn stores only the messages it added
 * (as checkpoint writes) plus, now and then, a snapshot of the whole list (see
 * {@link MessagesDeltaChannel} for when). Reading a checkpoint rebuilds the list from the
 * nearest snapshot and the writes after it (NeonSaver reads both in one round trip).
 *
 * Threads written before (the whole list in every checkpoint) load unchanged: a plain list
 * in `channel_values` is taken as the channel's value, exactly like a snapshot.
 *
 * Trim (`persist_trim_keep_groups`, R4.2) keeps only the newest checkpoint, so there every
 * update snapshots (the list is short by construction) and nothing needs older rows.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { DeltaChannel, type Messages, messagesDeltaReducer } from "@langchain/langgraph";
import {
  type BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type DeltaChannelHistory,
  isDeltaSnapshot,
} from "@langchain/langgraph-checkpoint";
import { archivedPrefixOf, hasTranscript } from "./transcript.ts";

/**
 * The fewest updates of the messages channel between two full snapshots. A plain turn is one
 * update (an agent without tools runs its turn as one graph step: the user message and the
 * reply); a turn with tools is one update per step (the user message, each model answer, each
 * set of tool results).
 */
export const MESSAGES_SNAPSHOT_EVERY = 50;

/**
 * The messages channel: snapshots the whole list once the updates since the last snapshot
 * reach a quarter of the list's length (and at least {@link MESSAGES_SNAPSHOT_EVERY}) — with
 * plain turns (two messages an update) snapshots come at about 100, 200, 400, 800… messages.
 * Spread over the turns between them, a snapshot costs about two messages' worth of bytes per
 * message added, whatever the length of the conversation: the bytes a turn writes stay flat on
 * average, not only between snapshots.
 * A read revives the snapshot and the messages written after it: the list's length, as
 * with a full copy in every checkpoint, from at most as many checkpoints as turns since the
 * snapshot (one statement walks them).
 */
class MessagesDeltaChannel extends DeltaChannel<BaseMessage[], Messages> {
  constructor() {
    super(messagesDeltaReducer, { snapshotFrequency: MESSAGES_SNAPSHOT_EVERY });
    // DeltaChannel declares snapshotFrequency as an own field; LangGraph reads it when it
    // decides whether this checkpoint snapshots, so it follows the list's length.
    Object.defineProperty(this, "snapshotFrequency", {
      get: () => Math.max(MESSAGES_SNAPSHOT_EVERY, Math.ceil((this.value?.length ?? 0) / 4)),
      set: () => {},
      enumerable: true,
      configurable: true,
    });
  }

  override fromCheckpoint(checkpoint?: unknown): this {
    const restored = super.fromCheckpoint(checkpoint as BaseMessage[] | undefined);
    const channel = new MessagesDeltaChannel();
    channel.value = restored.value;
    return channel as this;
  }

  override equals(other: unknown): boolean {
    return other === this || other instanceof MessagesDeltaChannel;
  }
}

/** The graph's messages channel; `trim` = every update snapshots (see the module note). */
export function messagesChannel(options: { trim: boolean }): DeltaChannel<BaseMessage[], Messages> {
  return options.trim
    ? new DeltaChannel<BaseMessage[], Messages>(messagesDeltaReducer, { snapshotFrequency: 1 })
    : new MessagesDeltaChannel();
}

/**
 * Whether a saver that keeps only the newest checkpoint (trim) may delete the older ones when
 * it writes `checkpoint`: only if the checkpoint does not need them to rebuild a delta
 * channel. LangGraph lists in `counters_since_delta_snapshot` every delta channel that was
 * not snapshotted in this checkpoint; one of them with a version and no stored value is
 * rebuilt from its ancestors' writes, which must stay.
 */
export function canPruneOlder(checkpoint: Checkpoint, metadata: CheckpointMetadata): boolean {
  const counters = (metadata as { counters_since_delta_snapshot?: Record<string, unknown> })
    .counters_since_delta_snapshot;
  if (counters === undefined || counters === null) return true;
  return Object.keys(counters).every(
    (channel) =>
      checkpoint.channel_versions[channel] === undefined ||
      Object.hasOwn(checkpoint.channel_values, channel),
  );
}

/** One checkpoint of an ancestor walk, parent first: values found there and its writes. */
export interface DeltaChainLink {
  readonly seeds: ReadonlyMap<string, unknown>;
  /** In replay order (task_path, task_id, idx). */
  readonly writes: readonly CheckpointPendingWrite[];
}

/**
 * LangGraph's `getDeltaChannelHistory` result from an ancestor walk: for each channel, the
 * writes of every checkpoint from the parent up to and including the first one that stores
 * the channel's value, oldest first, and that value as the seed (absent: start empty).
 */
export function assembleDeltaHistory(
  chain: readonly DeltaChainLink[],
  channels: readonly string[],
): Record<string, DeltaChannelHistory> {
  const remaining = new Set(channels);
  const newestFirst = new Map<string, CheckpointPendingWrite[]>(channels.map((c) => [c, []]));
  const seeds = new Map<string, unknown>();
  for (const link of chain) {
    if (remaining.size === 0) break;
    for (let i = link.writes.length - 1; i >= 0; i -= 1) {
      const write = link.writes[i] as CheckpointPendingWrite;
      if (remaining.has(write[1])) newestFirst.get(write[1])?.push(write);
    }
    for (const [channel, value] of link.seeds) {
      if (!remaining.has(channel)) continue;
      seeds.set(channel, value);
      remaining.delete(channel);
    }
  }
  const result: Record<string, DeltaChannelHistory> = {};
  for (const channel of channels) {
    const entry: DeltaChannelHistory = {
      writes: [...(newestFirst.get(channel) ?? [])].reverse(),
    };
    if (seeds.has(channel)) entry.seed = seeds.get(channel);
    result[channel] = entry;
  }
  return result;
}

/** The stored value of a messages channel: a snapshot, a plain (pre-delta) list, or nothing. */
function storedMessages(value: unknown): BaseMessage[] | undefined {
  if (isDeltaSnapshot(value)) return value.value as BaseMessage[];
  return Array.isArray(value) ? (value as BaseMessage[]) : undefined;
}

/**
 * The messages of a thread at a checkpoint (the latest by default), whatever the storage:
 * a full list (threads written before delta storage, trim), or a snapshot plus the writes
 * after it. For readers outside a graph run: inspect, summary, admin.
 */
export async function readThreadMessages(
  saver: BaseCheckpointSaver,
  config: RunnableConfig,
): Promise<{ tuple: CheckpointTuple | undefined; messages: BaseMessage[] }> {
  const head = await readThreadHead(saver, config);
  if (head.offset === 0 || !hasTranscript(saver)) return head;
  const threadId = String(head.tuple?.config.configurable?.thread_id ?? "");
  const older = await saver.readTranscript(threadId, 0, head.offset);
  return { tuple: head.tuple, messages: [...older, ...head.messages] };
}

/**
 * What a checkpoint holds of its thread, without the transcript: its messages and the
 * position of the first of them in the whole thread (`offset`: the transcript's positions
 * are below it; 0 when the saver keeps no transcript, then `messages` is the whole thread).
 */
export async function readThreadHead(
  saver: BaseCheckpointSaver,
  config: RunnableConfig,
): Promise<{ tuple: CheckpointTuple | undefined; messages: BaseMessage[]; offset: number }> {
  const tuple = await saver.getTuple(config);
  if (tuple === undefined) return { tuple, messages: [], offset: 0 };
  const messages = await rebuildMessages(saver, tuple);
  // A live tail (memory/live-tail.ts): the older messages are in the saver's transcript.
  const archived = archivedPrefixOf(tuple.checkpoint.channel_values.archived).messages;
  return { tuple, messages, offset: hasTranscript(saver) ? archived : 0 };
}

/**
 * The `messages` channel of a checkpoint as a list, whatever the storage: a full list, a
 * snapshot, or a snapshot plus the writes after it (one getDeltaChannelHistory call).
 */
export async function rebuildMessages(
  saver: BaseCheckpointSaver,
  tuple: CheckpointTuple,
): Promise<BaseMessage[]> {
  const stored = storedMessages(tuple.checkpoint.channel_values.messages);
  if (stored !== undefined) return stored;
  if (tuple.checkpoint.channel_versions.messages === undefined) return [];
  const history = (
    await saver.getDeltaChannelHistory({ config: tuple.config, channels: ["messages"] })
  ).messages;
  const channel = messagesChannel({ trim: false }).fromCheckpoint(
    history?.seed as BaseMessage[] | undefined,
  );
  channel.replayWrites(history?.writes ?? []);
  return channel.isAvailable() ? channel.get() : [];
}

/**
 * The tuple with its delta-stored `messages` rebuilt as a plain list (a thread stored before
 * the live tail, read by a `tail` graph, whose channel is a plain list: NeonSaver's
 * `materializeMessages`, TranscriptReader.plainMessages).
 */
export async function withMessageList(
  saver: BaseCheckpointSaver,
  tuple: CheckpointTuple,
): Promise<CheckpointTuple> {
  const values = tuple.checkpoint.channel_values;
  if (Array.isArray(values.messages)) return tuple;
  if (tuple.checkpoint.channel_versions.messages === undefined && values.messages === undefined)
    return tuple;
  const messages = await rebuildMessages(saver, tuple);
  return {
    ...tuple,
    checkpoint: { ...tuple.checkpoint, channel_values: { ...values, messages } },
  };
}

/**
 * How many messages the thread has at a checkpoint, when its stored values tell (registry
 * count): the messages it holds, after those of the transcript (a live tail's `archived`).
 * null when they are stored as deltas.
 */
export function storedMessageCount(values: Record<string, unknown>): number | null {
  const held = storedMessages(values.messages)?.length;
  return held === undefined ? null : archivedPrefixOf(values.archived).messages + held;
}

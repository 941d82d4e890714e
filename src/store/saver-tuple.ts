/**
 * The storage-independent halves of a checkpointer on LangGraph's table layout (checkpoints,
 * checkpoint_blobs, checkpoint_writes), shared by NeonSaver (Postgres) and SqliteSaver:
 *
 * - {@link serializeBlobs}: the blob rows a `put` writes — one per channel whose version moved,
 *   `empty` for a channel without a value (LangGraph's own convention);
 * - {@link assembleTuple}: stored rows → a CheckpointTuple: channel values from the blobs, the
 *   pending writes (already in writesSortKey order), and, for checkpoints before format v4,
 *   the parent's Send packets migrated into the TASKS channel.
 *
 * How rows are read and written (SQL, encodings) stays with each saver.
 */
import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  maxChannelVersion,
  type SerializerProtocol,
  TASKS,
} from "@langchain/langgraph-checkpoint";

export interface BlobRow {
  readonly channel: string;
  readonly version: string;
  readonly type: string;
  /** null for `empty`. */
  readonly bytes: Uint8Array | null;
}

export async function serializeBlobs(
  serde: SerializerProtocol,
  values: Record<string, unknown>,
  newVersions: ChannelVersions,
): Promise<BlobRow[]> {
  return Promise.all(
    Object.entries(newVersions).map(async ([channel, version]) => {
      if (!(channel in values))
        return { channel, version: String(version), type: "empty", bytes: null };
      const [type, bytes] = await serde.dumpsTyped(values[channel]);
      return { channel, version: String(version), type, bytes };
    }),
  );
}

export interface StoredCheckpoint {
  /** The caller's (external) thread id. */
  readonly threadId: string;
  readonly ns: string;
  readonly checkpointId: string;
  readonly parentId: string | null;
  readonly checkpoint: Omit<Checkpoint, "channel_values">;
  /** The metadata as stored JSON text. */
  readonly metadataJson: string;
  /** [channel, type, bytes or null] of the checkpoint's channel versions. */
  readonly blobs: readonly (readonly [string, string, Uint8Array | null])[];
  /** [task_id, channel, type, bytes] in writesSortKey order. */
  readonly writes: readonly (readonly [string, string, string, Uint8Array])[];
  /** [type, bytes] of the parent's Send packets (format < 4 only). */
  readonly sends: readonly (readonly [string, Uint8Array])[];
  /** The saver's `getNextVersion(undefined)`: the TASKS version of an empty checkpoint. */
  readonly firstVersion: () => ChannelVersions[string];
}

export async function assembleTuple(
  serde: SerializerProtocol,
  stored: StoredCheckpoint,
): Promise<CheckpointTuple> {
  const channelValues: Record<string, unknown> = {};
  for (const [channel, type, bytes] of stored.blobs) {
    if (type === "empty" || bytes === null) continue;
    channelValues[channel] = await serde.loadsTyped(type, bytes);
  }
  const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
    stored.writes.map(
      async ([taskId, channel, type, bytes]) =>
        [taskId, channel, await serde.loadsTyped(type, bytes)] as CheckpointPendingWrite,
    ),
  );
  let channelVersions = stored.checkpoint.channel_versions ?? {};
  if (stored.sends.length > 0) {
    channelValues[TASKS] = await Promise.all(
      stored.sends.map(([type, bytes]) => serde.loadsTyped(type, bytes)),
    );
    const versions = Object.values(channelVersions);
    channelVersions = {
      ...channelVersions,
      [TASKS]: versions.length > 0 ? maxChannelVersion(...versions) : stored.firstVersion(),
    };
  }
  const checkpoint = {
    ...stored.checkpoint,
    channel_versions: channelVersions,
    versions_seen: stored.checkpoint.versions_seen ?? {},
    channel_values: channelValues,
  } as Checkpoint;
  const at = (checkpointId: string) => ({
    configurable: {
      thread_id: stored.threadId,
      checkpoint_ns: stored.ns,
      checkpoint_id: checkpointId,
    },
  });
  return {
    config: at(stored.checkpointId),
    checkpoint,
    metadata: (await serde.loadsTyped("json", stored.metadataJson)) as CheckpointMetadata,
    parentConfig: stored.parentId ? at(stored.parentId) : undefined,
    pendingWrites,
  };
}

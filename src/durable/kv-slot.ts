/**
 * The key/value role of a THREADS object: an A2A task record written by an earlier release
 * (`task:<key>` objects, one record each; new records live in the owner's task list, see
 * worker/a2a.ts), and the read of an agent's run-time settings (`settings:<agent>`, key
 * `settings`; they change only through settings-slot.ts). The values are stored under the
 * caller's key in the object's storage, where stored records already are.
 */
import type { SettingsHost } from "../runtime/runtime-layer.ts";

/** What the A2A task store and the task index ask of a task record object. */
export interface TaskRecordHost {
  kvGet(key: string): Promise<unknown>;
  kvPut(key: string, value: unknown): Promise<void>;
  kvDelete(key: string): Promise<void>;
}

export class KvSlot implements TaskRecordHost, Pick<SettingsHost, "kvGet"> {
  constructor(private readonly storage: DurableObjectStorage) {}

  kvGet(key: string): Promise<unknown> {
    return this.storage.get(key);
  }

  async kvPut(key: string, value: unknown): Promise<void> {
    await this.storage.put(key, value);
  }

  async kvDelete(key: string): Promise<void> {
    await this.storage.delete(key);
  }
}

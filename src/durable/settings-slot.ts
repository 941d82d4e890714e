/**
 * The settings role of a THREADS object (`settings:<agent>`): the agent's run-time
 * MemoryConfig layer under the storage key `settings` (runtime/runtime-layer.ts). It is read
 * with kvGet (kv-slot.ts); every change is one RPC, read-change-write in one storage
 * transaction, so two PATCHes of different keys cannot interleave and drop each other's
 * keys (R10.2).
 */
import {
  applySettingsChange,
  RUNTIME_SETTINGS_KEY,
  type RuntimeSettings,
  type SettingsChange,
  type SettingsHost,
  toSettings,
} from "../runtime/runtime-layer.ts";

export class SettingsSlot implements Pick<SettingsHost, "changeSettings"> {
  constructor(private readonly storage: DurableObjectStorage) {}

  /** Applies the change to the stored settings and answers the new settings. */
  changeSettings(change: SettingsChange): Promise<RuntimeSettings> {
    return this.storage.transaction(async (txn) => {
      const next = applySettingsChange(toSettings(await txn.get(RUNTIME_SETTINGS_KEY)), change);
      await txn.put(RUNTIME_SETTINGS_KEY, next);
      return next;
    });
  }
}

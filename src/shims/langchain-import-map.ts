/**
 * The classes `@langchain/core`'s deserialiser (`load`, which LangGraph's checkpoint serde calls
 * for every stored LangChain object) may revive in a Worker: messages, documents, generation
 * outputs and prompt values. Put in place of core's own `load/import_map.js` by wrangler's
 * `[alias]` (wrangler.toml). Core's map imports every module it has (testing helpers, vector
 * stores, document loaders, prompts…, about 0.35 MiB of the bundle and an eighth of its
 * module evaluation), while what a Worker's checkpoint holds is messages (documents, generations and
 * prompt values are kept too, should a state or a tool's artifact hold one).
 *
 * A stored object of any other namespace is refused with a message saying how to read it
 * (remove the `[alias]` line), instead of core's "Invalid namespace". It also narrows what a
 * checkpoint can make `load` construct. Worker bundles only; never imported by llamon's own code.
 */
import * as documents from "@langchain/core/documents";
import * as messages from "@langchain/core/messages";
import * as outputs from "@langchain/core/outputs";
import * as prompt_values from "@langchain/core/prompt_values";

const KEPT: Readonly<Record<string, object>> = { messages, documents, outputs, prompt_values };

/** Why a stored object of namespace `key` is not revived here, and what to do. */
export function notInBundleMessage(key: string): string {
  const namespace = `langchain_core/${key.replaceAll("__", "/")}`;
  return `a stored LangChain object of ${namespace} cannot be read back in this Worker: its bundle revives only ${Object.keys(
    KEPT,
  )
    .map((k) => `langchain_core/${k}`)
    .join(
      ", ",
    )} (wrangler.toml [alias] replaces @langchain/core's import map with llamon's shim). Remove the "./import_map.js" line of [alias] to read every LangChain class.`;
}

/**
 * Core's `load` asks `key in map` for the object's namespace, shortening it a part at a time
 * (`messages__tool`, then `messages`), then reads `map[key]`. A key that is, or extends, a kept
 * namespace answers as core's map would; any other key is "present", so that reading it gives
 * the message above.
 */
function isKept(key: string): boolean {
  return Object.hasOwn(KEPT, key);
}

function extendsKept(key: string): boolean {
  const parts = key.split("__");
  for (let n = parts.length - 1; n >= 1; n--) {
    if (isKept(parts.slice(0, n).join("__"))) return true;
  }
  return false;
}

export const import_map_exports: Readonly<Record<string, object>> = new Proxy(KEPT, {
  has: (_target, key) => typeof key === "string" && (isKept(key) || !extendsKept(key)),
  get: (target, key) => {
    if (typeof key !== "string" || key === "then" || key in Object.prototype) {
      return Reflect.get(target, key);
    }
    if (isKept(key)) return target[key];
    throw new Error(notInBundleMessage(key));
  },
});

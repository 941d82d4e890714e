/**
 * The Worker bundle's stand-in for @langchain/core's deserialiser map (src/shims/
 * langchain-import-map.ts): answers core's `load` as the full map would for the namespaces it
 * keeps, and refuses any other with how to read it. workerd: test/workers/bundle-shims.test.ts.
 */
import * as messages from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import {
  import_map_exports as map,
  notInBundleMessage,
} from "../../../src/shims/langchain-import-map.ts";

describe("the deserialiser map of the Worker bundle", () => {
  it("keeps messages, documents, outputs and prompt values", () => {
    for (const key of ["messages", "documents", "outputs", "prompt_values"]) {
      expect(key in map, key).toBe(true);
    }
    expect(map.messages).toBe(messages);
  });

  it("a longer namespace of a kept one is absent, so core's load falls back to the kept module", () => {
    expect("messages__tool" in map).toBe(false);
    expect("prompt_values__chat" in map).toBe(false);
  });

  it("any other namespace is present but refused with how to read it", () => {
    expect("prompts__prompt" in map).toBe(true);
    expect(() => map.prompts__prompt).toThrow(
      "a stored LangChain object of langchain_core/prompts/prompt cannot be read back in this Worker: its bundle revives only langchain_core/messages, langchain_core/documents, langchain_core/outputs, langchain_core/prompt_values (wrangler.toml [alias] replaces @langchain/core's import map with llamon's shim). Remove the \"./import_map.js\" line of [alias] to read every LangChain class.",
    );
    expect(notInBundleMessage("vectorstores")).toContain("langchain_core/vectorstores cannot");
  });

  it("looking at it (then, toString, symbols) does not throw", () => {
    const loose = map as unknown as Record<string | symbol, unknown>;
    expect(loose.then).toBeUndefined();
    expect(String(map)).toBe("[object Object]");
    expect(loose[Symbol.toStringTag]).toBeUndefined();
  });
});

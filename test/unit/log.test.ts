/**
 * The logger's console output: every record is one line. The `multiturn:` record is printed as
 * its exact text, once, at INFO (R3.4): no second, JSON copy of the same line.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/log.ts";
import { multiturnLogLine } from "../../src/memory/prompt.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

function printed(method: "info" | "warn" | "error" | "debug") {
  const calls: unknown[][] = [];
  vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
    calls.push(args);
  });
  return calls;
}

describe("the console logger", () => {
  it("R3.4 prints the multiturn line once, exactly, at INFO, even with fields and request ids", () => {
    const info = printed("info");
    const signals = { thread_msgs: 4, window: 20, sent_to_llm: 4, has_prior: true };
    const log = createLogger({ fields: { agent_id: "support" } }).child({ context_id: "c-1" });
    log.line("info", multiturnLogLine(signals), { ...signals });
    expect(info).toEqual([["multiturn: thread_msgs=4 window=20 sent_to_llm=4 has_prior=true"]]);
  });

  it("prints any other record as one JSON line with its fields", () => {
    const warn = printed("warn");
    createLogger({ fields: { agent_id: "support" } }).warn("recall: failed", { code: "X" });
    expect(warn).toEqual([
      ['{"level":"warn","msg":"recall: failed","agent_id":"support","code":"X"}'],
    ]);
  });
});

/**
 * The common frame of the integration tests that run whole turns on the postgres backend: one
 * test backend for the file (started before its tests, closed after them) and a plain agent.
 */
import { afterAll, beforeAll } from "vitest";
import { type AgentDefinition, defineAgent } from "../../src/agent/define.ts";
import { startTestBackend, type TestBackend } from "./backend.ts";

/**
 * Registers beforeAll/afterAll that start and close a test backend, and returns it. Read its
 * fields inside tests and hooks only: they are there once beforeAll has run.
 */
export function useTestBackend(options: { migrate?: boolean } = {}): TestBackend {
  let started: TestBackend | undefined;
  beforeAll(async () => {
    started = await startTestBackend(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): TestBackend => {
    if (started === undefined) throw new Error("the test backend is not started yet");
    return started;
  };
  return {
    get kind() {
      return current().kind;
    },
    get dsn() {
      return current().dsn;
    },
    get proxy() {
      return current().proxy;
    },
    get worker() {
      return current().worker;
    },
    get neonDsn() {
      return current().neonDsn;
    },
    get neon() {
      return current().neon;
    },
    get pg() {
      return current().pg;
    },
    close: () => current().close(),
  };
}

/** A test agent: `name`, "for tests", "You are a helpful agent." unless given otherwise. */
export function testAgent(
  name: string,
  overrides: Partial<Omit<AgentDefinition, "name">> = {},
): AgentDefinition {
  return defineAgent({
    name,
    description: "for tests",
    system: "You are a helpful agent.",
    ...overrides,
  });
}

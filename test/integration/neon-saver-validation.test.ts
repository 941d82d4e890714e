/**
 * LangGraph's own checkpointer conformance suite against NeonSaver, through the Neon
 * driver → local Neon-protocol proxy → the real Postgres (or PGlite with
 * LLAMON_TEST_DB=embedded). Each checkpointer instance gets its own agent id, so the
 * instances are isolated exactly the way two agents sharing a database are (R2.3).
 */
import { randomBytes } from "node:crypto";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import "../helpers/jest-globals.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { startTestBackend, type TestBackend } from "../helpers/backend.ts";

let backend: TestBackend;

validate<NeonSaver>({
  checkpointerName: "llamon NeonSaver (R4.1)",
  beforeAllTimeout: 60_000,
  async beforeAll() {
    backend = await startTestBackend();
  },
  async afterAll() {
    await backend.close();
  },
  createCheckpointer() {
    return new NeonSaver({
      db: backend.neon,
      agentId: `conformance-${randomBytes(4).toString("hex")}`,
    });
  },
});

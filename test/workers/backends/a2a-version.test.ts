/**
 * A2A-Version negotiation on the Durable Object backends (this file runs in
 * `workers-sqlite` and `workers-in-memory`; the checks are ../version-cases.ts).
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, it } from "vitest";
import { versionCases } from "../version-cases.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;

describe(`A2A-Version (${backend})`, () => {
  it(`accepted versions run a turn, others are refused (${backend})`, async () => {
    await versionCases(exports.default);
  });
});

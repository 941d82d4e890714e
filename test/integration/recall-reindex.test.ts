/**
 * The lexical index backfill (`llamon memory reindex`, memory/reindex.ts): transcript rows
 * written before migration 0008 have no index terms and are never recalled; the backfill gives
 * them the terms a turn would have written, in bounded batches, and a second run finds nothing.
 */
import { describe, expect, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { TERMS_VERSION } from "../../src/memory/recall/terms.ts";
import { countUnindexed, reindexTranscript } from "../../src/memory/reindex.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { runLlamon } from "../helpers/cli.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Reindex agent");
const DOG = "제 강아지 이름은 초코예요";
const QUESTION = "우리 강아지 이름이 뭐였죠?";

function deps(agentId: string): TurnDeps {
  return {
    agent,
    config: resolveMemoryConfig({ code: { window_size: 6 } }).config,
    model: new OfflineChatModel(),
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
  };
}

async function conversation(agentId: string) {
  await runTurn(deps(agentId), { threadId: "t", text: DOG });
  for (let i = 0; i < 10; i++) {
    await runTurn(deps(agentId), { threadId: "t", text: `오늘의 잡담 ${i}: 날씨와 점심 이야기` });
  }
}

/** What a database written before migration 0008 holds: transcript rows without terms. */
async function forgetTerms(agentId: string) {
  await backend.pg.query(
    "UPDATE llamon_messages SET search_terms = NULL, terms_version = NULL WHERE agent_id = $1",
    [agentId],
  );
}

async function recalled(agentId: string): Promise<string> {
  const result = await runTurn(deps(agentId), { threadId: "t", text: QUESTION });
  return String(result.lastPrompt?.messages[0]?.content);
}

describe("llamon memory reindex (the lexical index backfill)", () => {
  it("indexes old transcript rows in batches, as a turn would have, and then finds none", async () => {
    await conversation("rx-a");
    const { rows: before } = await backend.pg.query<{ seq: string; search_terms: string | null }>(
      "SELECT seq, search_terms FROM llamon_messages WHERE agent_id = 'rx-a' ORDER BY seq",
    );
    await forgetTerms("rx-a");
    expect(await recalled("rx-a")).not.toContain(DOG);
    const pending = await countUnindexed(backend.pg);
    expect(pending).toBeGreaterThanOrEqual(before.length);
    const batches: number[] = [];
    const result = await reindexTranscript(backend.pg, {
      batchSize: 3,
      onBatch: (p) => batches.push(p.indexed),
    });
    expect(result.indexed).toBe(pending);
    expect(result.batches).toBe(Math.ceil(pending / 3));
    expect(batches.every((n, i) => n <= (i + 1) * 3)).toBe(true);
    // The same terms as the turn wrote when it appended the rows.
    const { rows: after } = await backend.pg.query<{ seq: string; search_terms: string | null }>(
      "SELECT seq, search_terms FROM llamon_messages WHERE agent_id = 'rx-a' AND seq <= $1 ORDER BY seq",
      [before.at(-1)?.seq ?? 0],
    );
    expect(after).toEqual(before);
    expect(await countUnindexed(backend.pg)).toBe(0);
    expect(await reindexTranscript(backend.pg)).toEqual({ indexed: 0, skipped: 0, batches: 0 });
    expect(await recalled("rx-a")).toContain(`- user: "${DOG}"`);
  });

  it("rebuilds rows an older TERMS_VERSION made and leaves current rows alone", async () => {
    await conversation("rx-old");
    expect(await countUnindexed(backend.pg)).toBe(0);
    const { rows: before } = await backend.pg.query<{ seq: string; search_terms: string | null }>(
      "SELECT seq, search_terms FROM llamon_messages WHERE agent_id = 'rx-old' ORDER BY seq",
    );
    // What an older build left: terms made another way (here: ones no question shares).
    const stale = await backend.pg.query(
      `UPDATE llamon_messages SET search_terms = 'stale', terms_version = $1
        WHERE agent_id = 'rx-old' AND search_terms IS NOT NULL`,
      [TERMS_VERSION - 1],
    );
    expect(stale.rowCount).toBeGreaterThan(0);
    expect(await recalled("rx-old")).not.toContain(DOG);
    expect(await countUnindexed(backend.pg)).toBe(stale.rowCount);
    expect(await reindexTranscript(backend.pg)).toMatchObject({ indexed: stale.rowCount });
    const { rows: after } = await backend.pg.query<{ seq: string; search_terms: string | null }>(
      "SELECT seq, search_terms FROM llamon_messages WHERE agent_id = 'rx-old' AND seq <= $1 ORDER BY seq",
      [before.at(-1)?.seq ?? 0],
    );
    expect(after).toEqual(before);
    expect(await countUnindexed(backend.pg)).toBe(0);
    expect(await recalled("rx-old")).toContain(`- user: "${DOG}"`);
  });

  it("the CLI counts without --apply and indexes with it", async () => {
    await conversation("rx-cli");
    await forgetTerms("rx-cli");
    const pending = await countUnindexed(backend.pg);
    expect(pending).toBeGreaterThan(0);
    const dry = await runLlamon(["memory", "reindex", "--dsn", backend.dsn, "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ unindexed: pending, applied: false });
    expect(await countUnindexed(backend.pg)).toBe(pending);
    const bad = await runLlamon(["memory", "reindex", "--dsn", backend.dsn, "--batch-size", "0"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--batch-size must be a whole number ≥ 1");
    const applied = await runLlamon([
      "memory",
      "reindex",
      "--dsn",
      backend.dsn,
      "--apply",
      "--batch-size",
      "4",
      "--json",
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ indexed: pending, applied: true });
    expect(await countUnindexed(backend.pg)).toBe(0);
    expect(await recalled("rx-cli")).toContain(`- user: "${DOG}"`);
  });
});

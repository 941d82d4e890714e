/**
 * The change and retraction set test/fixtures/facts/changes.json is well-formed and shaped as
 * promised (at least 40 dialogues, about half Korean, exactly a third held out, spread over
 * kinds and languages). Its scores are targets that `npm run eval:memory` reports; no floor
 * is asserted here.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHANGE_KINDS, loadChanges, runChange } from "../../../../bench/facts-changes.ts";
import { loadEndings } from "../../../../bench/facts-endings.ts";

const dialogues = loadChanges();
const dir = mkdtempSync(join(tmpdir(), "llamon-changes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the change and retraction set", () => {
  it("has at least 40 multi-session dialogues, about half Korean, a third held out", () => {
    expect(dialogues.length).toBeGreaterThanOrEqual(40);
    const korean = dialogues.filter((d) => d.lang === "ko").length;
    expect(Math.abs(korean * 2 - dialogues.length)).toBeLessThanOrEqual(2);
    const heldOut = dialogues.filter((d) => d.split === "held-out");
    expect(heldOut.length).toBe(Math.floor(dialogues.length / 3));
    for (const lang of ["ko", "en"]) {
      expect(heldOut.filter((d) => d.lang === lang).length).toBeGreaterThanOrEqual(5);
    }
    expect(new Set(heldOut.map((d) => d.kind)).size).toBeGreaterThanOrEqual(6);
    for (const kind of CHANGE_KINDS) {
      expect(dialogues.filter((d) => d.kind === kind).length, kind).toBeGreaterThanOrEqual(4);
    }
    for (const d of dialogues) {
      expect(d.sessions.length, d.id).toBeGreaterThanOrEqual(2);
      expect(d.retired.length, d.id).toBeGreaterThan(0);
    }
  });

  it("rejects a malformed file naming the dialogue and the field", () => {
    const path = join(dir, "bad.json");
    const bad = structuredClone(dialogues[0]) as unknown as { sessions: { date: string }[] };
    (bad.sessions[0] as { date: string }).date = "last week";
    writeFileSync(path, JSON.stringify([bad]));
    expect(() => loadChanges(path)).toThrow(/ch-en-01 sessions\.0\.date/);
  });

  it("runs a dialogue through the turn's facts step and judges its blocks", async () => {
    const d = dialogues.find((x) => x.id === "ch-ko-02");
    if (d === undefined) throw new Error("ch-ko-02 is missing");
    const r = await runChange(d);
    expect(r.followUps).toHaveLength(d.followUps.length);
    for (const f of r.followUps) expect(f.score3).toBeGreaterThanOrEqual(0);
    expect(r.facts.length).toBeGreaterThan(0);
  });
});

describe("the one-message endings set", () => {
  it("parses, and its held-out items come from writers who had not seen the engine", () => {
    const items = loadEndings();
    expect(items.length).toBeGreaterThanOrEqual(100);
    const heldOut = items.filter((i) => i.split === "held-out");
    expect(heldOut.length).toBeGreaterThanOrEqual(30);
    expect(heldOut.every((i) => i.source !== "engineer")).toBe(true);
    for (const lang of ["ko", "en"]) {
      expect(heldOut.filter((i) => i.lang === lang).length).toBeGreaterThanOrEqual(15);
    }
  });
});

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { projectNameProblem } from "../../../packages/cli/src/cli/scaffold/names.ts";
import { buildStudioClient, STUDIO_CLIENT_DIR } from "../../../scripts/build-studio.mts";
import type { FlowView } from "../../../src/admin/flow-view.ts";
import type { ThreadView } from "../../../src/admin/inspect.ts";
import type { ThreadPage } from "../../../src/admin/threads.ts";
import { MEMORY_CONFIG_KEYS } from "../../../src/memory/config.ts";
import { STUDIO_JS, studioLang } from "../../../src/studio/app.ts";
import type * as Wire from "../../../src/studio/client/wire.ts";
import { STUDIO_FIELDS } from "../../../src/studio/fields.ts";
import { STUDIO_MESSAGES } from "../../../src/studio/i18n.ts";
import { PROJECT_NAME_RULE, renderStudioPage } from "../../../src/studio/page.tsx";

describe("Studio assets", () => {
  it("the browser script is the client bundled from its TypeScript sources, and parses", async () => {
    expect(STUDIO_JS).toBe(await buildStudioClient());
    expect(() => new Function(STUDIO_JS)).not.toThrow();
  });

  it("the browser client never writes HTML from data", async () => {
    const sources = await Promise.all(
      (await readdir(STUDIO_CLIENT_DIR))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => readFile(join(STUDIO_CLIENT_DIR, f), "utf8")),
    );
    expect(sources.length).toBeGreaterThan(3);
    const htmlSinks =
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/;
    for (const text of [...sources, STUDIO_JS]) expect(text).not.toMatch(htmlSinks);
  });

  // Checked by `npm run typecheck`: the client's own types of the API's JSON (it lives in the
  // browser's type world) must accept what the routes send.
  it("the client's types of the API's answers fit what the server sends", () => {
    expectTypeOf<ThreadView & { flow: FlowView | null }>().toExtend<Wire.ThreadView>();
    expectTypeOf<ThreadPage>().toExtend<Wire.ThreadList>();
    expectTypeOf<Pick<ThreadView, "messages" | "page">>().toExtend<Wire.OlderPage>();
  });

  it("has a form field for every MemoryConfig key, deploy-time keys read-only", () => {
    expect(STUDIO_FIELDS.map((f) => f.key)).toEqual(MEMORY_CONFIG_KEYS);
    expect(STUDIO_FIELDS.filter((f) => f.deployTime).map((f) => f.key)).toEqual([
      "backend",
      "postgres_dsn",
    ]);
    for (const f of STUDIO_FIELDS) {
      expect(f.help.ko, f.key).not.toBe("");
      expect(f.help.en, f.key).not.toBe("");
    }
  });

  it("has every label in Korean and English", () => {
    expect(Object.keys(STUDIO_MESSAGES.en).sort()).toEqual(Object.keys(STUDIO_MESSAGES.ko).sort());
    for (const [key, text] of Object.entries(STUDIO_MESSAGES.en)) expect(text, key).not.toBe("");
  });

  it("R1.2 the new-project form offers off, in-memory and postgres, never sqlite", () => {
    const page = renderStudioPage({ lang: "ko", agentName: "x" });
    const choices = [...page.matchAll(/name="memory"[^>]*value="([^"]+)"/g)].map((m) => m[1]);
    expect(choices).toEqual(["postgres", "in-memory", "off"]);
    expect(page).not.toContain('value="sqlite"');
  });

  it("checks project names like the CLI does (packages/cli/src/cli/scaffold/names.ts)", () => {
    const pattern = new RegExp(PROJECT_NAME_RULE.pattern);
    const clientOk = (name: string) =>
      pattern.test(name) &&
      name.length <= PROJECT_NAME_RULE.maxLength &&
      !PROJECT_NAME_RULE.reserved.includes(name);
    for (const name of [
      "my-agent",
      "a",
      "a1-b2",
      "My-Agent",
      "1agent",
      "agent-",
      "a--b",
      "a_b",
      "llamon",
      "test",
      "x".repeat(56),
      "x".repeat(57),
      "",
    ]) {
      expect(clientOk(name), name).toBe(projectNameProblem(name) === undefined);
    }
  });

  it("renders the page in the chosen language and escapes the agent name", () => {
    const ko = renderStudioPage({ lang: "ko", agentName: '<img src=x onerror="x">' });
    expect(ko).toContain('<html lang="ko">');
    expect(ko).toContain("&lt;img src=x onerror=&quot;x&quot;&gt;");
    expect(ko).not.toContain("<img");
    expect(ko).toContain(">대화하기<");
    expect(renderStudioPage({ lang: "en", agentName: "a" })).toContain(">Chat<");
    const data = /<script type="application\/json" id="studio-data">(.*?)<\/script>/s.exec(ko)?.[1];
    expect(JSON.parse(data ?? "").lang).toBe("ko");
  });

  it("picks the language from ?lang=, then the browser's first language", () => {
    expect(studioLang("en", "ko-KR")).toBe("en");
    expect(studioLang(undefined, "ko-KR,ko;q=0.9,en;q=0.8")).toBe("ko");
    expect(studioLang(undefined, "en-US,en;q=0.9,ko;q=0.8")).toBe("en");
    expect(studioLang(undefined, undefined)).toBe("ko");
    expect(studioLang("fr", "de")).toBe("en");
  });
});

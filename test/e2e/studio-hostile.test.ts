/**
 * Studio shows hostile conversation content as text. Headless Chromium (test/helpers/
 * chromium.ts) loads the real page and the script bundled from src/studio/client/, served by
 * Studio's Hono app; the management API's answers are stand-ins whose every string the page
 * shows is markup meant to run (`<img onerror>`, `</script><script>`, an `<svg onload>`).
 * Nothing of it may become an element: it must read back, character for character, as text.
 */
import { Hono } from "hono";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentDefinition } from "../../src/agent/define.ts";
import { MEMORY_CONFIG_DEFAULTS } from "../../src/memory/config-schema.ts";
import { createStudioApp } from "../../src/studio/app.ts";
import { collectProblems, launchChromium } from "../helpers/chromium.ts";

// Never reached: every request is answered by serve() (localhost is a secure origin).
const ORIGIN = "http://localhost:9";
const TOKEN = "hostile-test-token";
/** Each would run script or add an element if it were ever parsed as HTML. */
const IMG = `<img src=x onerror="window.__pwned='img'">`;
const SCRIPT = `</script><script>window.__pwned='script'</script>`;
const SVG = `<svg onload="window.__pwned='svg'"></svg><b>bold</b>`;
const CONTEXT = `ctx-${IMG}`;
const PRINCIPAL = `user-${SVG}`;

const agent: AgentDefinition = { name: `agent ${SCRIPT}`, description: "hostile names" };

const signals = { thread_msgs: 2, window: 20, sent_to_llm: 2, has_prior: true };
const threadView = {
  agent_id: `id ${IMG}`,
  context_id: CONTEXT,
  messages: [
    { index: 0, id: "m0", type: "human", text: `hi ${IMG}`, conversation: true },
    { index: 1, id: "m1", type: "ai", text: `reply ${SCRIPT}`, conversation: true },
  ],
  page: { from: 0, to: 2, total: 2, stored: 2, older: null },
  groups: [{ kind: `turn ${SVG}`, indexes: [0, 1], message_ids: ["m0", "m1"], in_window: true }],
  window: { window_size: 20, max_history_tokens: null, kept_ids: ["m0", "m1"] },
  signals,
  system_prompt: `system ${SCRIPT}`,
  summary: { text: `summary ${IMG}`, covers: 0, effective_covers: 0 },
  facts: [{ text: `fact ${IMG}`, since: `since ${SVG}` }],
  retired_facts: [{ text: `old fact ${SCRIPT}`, retiredAt: `then ${IMG}` }],
  last_turn: { at: `at ${SVG}`, signals, sent_ids: [] },
  hints: [{ id: "check_prompt", ko: `힌트 ${IMG}`, en: `hint ${IMG}` }],
  flow: {
    name: `flow ${SCRIPT}`,
    step: `step ${IMG}`,
    question: `question ${SVG}`,
    answers: { a: IMG },
    status: "awaiting",
  },
};

const configBody = {
  agent_id: `id ${IMG}`,
  config: { ...MEMORY_CONFIG_DEFAULTS, embedding_model: IMG, embedding_base_url: SCRIPT },
  sources: Object.fromEntries(Object.keys(MEMORY_CONFIG_DEFAULTS).map((k) => [k, "env"])),
  propagation: { cache_ttl_seconds: 30 },
};

const threadList = {
  threads: [
    {
      principal: PRINCIPAL,
      context_id: CONTEXT,
      created_at: "2026-01-01T00:00:00Z",
      last_activity_at: "2026-01-01T00:00:00Z",
      message_count: 2,
    },
  ],
  next_cursor: null,
};

const studio = new Hono().route("/studio", createStudioApp(agent));

/** Studio from its app; the API from the stand-ins above, behind the admin token. */
async function serve(route: Route): Promise<void> {
  const request = route.request();
  const url = new URL(request.url());
  if (url.pathname.startsWith("/studio")) {
    const res = await studio.request(
      `${url.pathname}${url.search}`,
      {},
      {
        LLAMON_ADMIN_TOKEN: TOKEN,
      },
    );
    await route.fulfill({
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: Buffer.from(await res.arrayBuffer()),
    });
    return;
  }
  if (request.headers().authorization !== `Bearer ${TOKEN}`) {
    await route.fulfill({ status: 401, json: { code: "UNAUTHORIZED", message: "token" } });
    return;
  }
  const body =
    url.pathname === "/api/v1/memory/config"
      ? configBody
      : url.pathname === "/api/v1/memory/threads"
        ? threadList
        : url.pathname.startsWith("/api/v1/memory/threads/")
          ? threadView
          : undefined;
  if (body === undefined) await route.fulfill({ status: 404, json: { message: "no route" } });
  else await route.fulfill({ json: body });
}

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const text = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.textContent ?? "").join("\n"));

describe("Studio and hostile content", () => {
  it("R10.2 shows markup in messages, facts, summary, flow, names and config values as text, never as elements", async () => {
    const page = await (browser as Browser).newPage({ locale: "en-US" });
    const problems = collectProblems(page);
    await page.route(`${ORIGIN}/**`, serve);
    await page.goto(`${ORIGIN}/studio?lang=en`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.locator("#thread-list button").first().click();
    await page.locator("#facts li").first().waitFor();

    // Not one element came from the data: no img, svg or b; the page's own two scripts only.
    expect(await page.locator("img, svg, b:not([data-source])").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(2);
    expect(await page.evaluate<unknown>("window.__pwned")).toBeUndefined();

    // Each string is there as typed.
    expect(await text(page, "header .agent")).toContain(`agent ${SCRIPT}`);
    expect(await text(page, "#status")).toContain(`id ${IMG}`);
    const listed = await text(page, "#thread-list button");
    expect(listed).toContain(CONTEXT);
    expect(listed).toContain(PRINCIPAL);
    expect(await text(page, "#chat-context")).toContain(CONTEXT);
    const transcript = await text(page, "#transcript .msg");
    expect(transcript).toContain(`hi ${IMG}`);
    expect(transcript).toContain(`reply ${SCRIPT}`);
    expect(await text(page, "#groups tbody")).toContain(`turn ${SVG}`);
    const facts = await text(page, "#facts li");
    expect(facts).toContain(`fact ${IMG} (since since ${SVG})`);
    expect(facts).toContain(`old fact ${SCRIPT}`);
    expect(await text(page, "#summary pre")).toBe(`summary ${IMG}`);
    expect(await text(page, "#system-prompt")).toBe(`system ${SCRIPT}`);
    expect(await text(page, "#hints li")).toBe(`hint ${IMG}`);
    expect(await text(page, "#last-turn")).toContain(`at ${SVG}`);
    const flow = await text(page, "#flow");
    expect(flow).toContain(`flow ${SCRIPT}`);
    expect(flow).toContain(`step ${IMG}`);
    expect(flow).toContain(`question ${SVG}`);
    expect(await page.inputValue("#cfg-embedding_model")).toBe(IMG);
    expect(await page.inputValue("#cfg-embedding_base_url")).toBe(SCRIPT);
    expect(await page.getAttribute(`#thread-list button`, "data-context")).toBe(CONTEXT);

    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});

/** The agent card in the shape the A2A-Version header asks for. */
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { isLegacyAgentCard, parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { wantsLegacyCard } from "../../../src/a2a/card.ts";
import { BASE_URL, makeApp } from "./helpers.ts";

async function card(
  app: { fetch: (r: Request) => Response | Promise<Response> },
  headers: Record<string, string> = {},
  path = "/.well-known/agent-card.json",
  base = BASE_URL,
) {
  const res = await app.fetch(new Request(`${base}${path}`, { headers }));
  expect(res.status).toBe(200);
  expect(res.headers.get("vary")).toBe("A2A-Version");
  return (await res.json()) as Record<string, unknown>;
}

describe("agent card", () => {
  it("without A2A-Version (the spec's 0.3 default) serves the v0.3 card with the v1.0 interfaces embedded", async () => {
    const { app } = makeApp();
    const body = await card(app);
    expect(body).toMatchObject({
      name: "Test agent",
      description: "Remembers the conversation",
      version: "1.2.3",
      protocolVersion: "0.3",
      url: `${BASE_URL}/`,
      preferredTransport: "JSONRPC",
      capabilities: { streaming: true, pushNotifications: false },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [
        expect.objectContaining({ id: "conversation", tags: ["chat", "multi-turn", "memory"] }),
      ],
      supportedInterfaces: [
        { url: `${BASE_URL}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
        {
          url: `${BASE_URL}/rest`,
          protocolBinding: "HTTP+JSON",
          tenant: "",
          protocolVersion: "1.0",
        },
        { url: `${BASE_URL}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
      ],
    });
    expect(await card(app, { "A2A-Version": "0.3" })).toEqual(body);
    // The SDK's v0.3 parser reads it (without the v1.0 sidecar, as a pure v0.3 client would).
    const { supportedInterfaces: _, ...pure } = body;
    expect(isLegacyAgentCard(pure)).toBe(true);
    const parsed = parseLegacyAgentCard(pure);
    expect(parsed.supportedInterfaces).toEqual([
      expect.objectContaining({
        url: `${BASE_URL}/`,
        protocolBinding: "JSONRPC",
        protocolVersion: "0.3",
      }),
    ]);
    expect(parsed.capabilities?.streaming).toBe(true);
  });

  it("with A2A-Version: 1.0 serves the v1.0 card, which the SDK's resolver accepts", async () => {
    const t = makeApp();
    const body = await card(t.app, { "A2A-Version": "1.0" });
    expect(body).toMatchObject({
      name: "Test agent",
      version: "1.2.3",
      capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
      supportedInterfaces: [
        { url: `${BASE_URL}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: `${BASE_URL}/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
        { url: `${BASE_URL}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      ],
    });
    expect(body.protocolVersion).toBeUndefined();
    expect(body.url).toBeUndefined();
    const resolved = await new DefaultAgentCardResolver({ fetchImpl: t.fetch }).resolve(BASE_URL);
    expect(resolved.name).toBe("Test agent");
    expect(resolved.capabilities?.streaming).toBe(true);
  });

  it("the older /.well-known/agent.json path serves the same card", async () => {
    const { app } = makeApp();
    expect(await card(app, {}, "/.well-known/agent.json")).toEqual(await card(app));
  });

  it("uses a configured url, and otherwise the request origin plus the mount path", async () => {
    const configured = makeApp({
      card: { name: "n", description: "d", version: "1", url: "https://public.example/a2a/" },
    });
    expect((await card(configured.app)).url).toBe("https://public.example/a2a/");
    const outer = new Hono().route("/agents/x", makeApp().app);
    expect(
      (await card(outer, {}, "/agents/x/.well-known/agent-card.json", "http://localhost:8787")).url,
    ).toBe("http://localhost:8787/agents/x/");
  });

  it("lists configured skills", async () => {
    const { app } = makeApp({
      card: {
        name: "n",
        description: "d",
        version: "1",
        skills: [
          { id: "faq", name: "FAQ", description: "answers", tags: ["faq"], examples: ["hi?"] },
        ],
      },
    });
    expect((await card(app)).skills).toEqual([
      { id: "faq", name: "FAQ", description: "answers", tags: ["faq"], examples: ["hi?"] },
    ]);
  });

  it.each([
    [undefined, true],
    ["", true],
    ["0.3", true],
    ["0.2", true],
    ["1.0", false],
    ["1", false],
    ["2.1", false],
    ["garbage", false],
  ])("A2A-Version %j → v0.3 card: %s", (header, legacy) => {
    expect(wantsLegacyCard(header)).toBe(legacy);
  });
});

describe("the card's ETag and conditional GET", () => {
  const get = (app: { fetch: (r: Request) => Response | Promise<Response> }, headers = {}) =>
    app.fetch(new Request(`${BASE_URL}/.well-known/agent-card.json`, { headers }));

  it("carries a strong ETag per shape, and If-None-Match with it is 304 without a body", async () => {
    const { app } = makeApp();
    const v03 = await get(app);
    const v1 = await get(app, { "A2A-Version": "1.0" });
    const tag03 = v03.headers.get("etag") ?? "";
    const tag1 = v1.headers.get("etag") ?? "";
    expect(tag03).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(tag1).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(tag1).not.toBe(tag03);
    // Same card, same tag.
    expect((await get(app)).headers.get("etag")).toBe(tag03);
    for (const inm of [tag03, `W/${tag03}`, `"other", ${tag03}`, "*"]) {
      const res = await get(app, { "If-None-Match": inm });
      expect(res.status, inm).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("etag")).toBe(tag03);
      expect(res.headers.get("vary")).toBe("A2A-Version");
    }
    // The v0.3 tag does not validate the v1.0 shape, nor a stale tag anything.
    expect((await get(app, { "If-None-Match": tag03, "A2A-Version": "1.0" })).status).toBe(200);
    const stale = await get(app, { "If-None-Match": '"stale"' });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await stale.json()) as { name: string }).name).toBe("Test agent");
  });

  it("R12.3 carries Last-Modified (when this isolate first served that card); If-Modified-Since is honoured without If-None-Match", async () => {
    const { app } = makeApp();
    const first = await get(app, { "A2A-Version": "1.0" });
    const lastModified = first.headers.get("last-modified") ?? "";
    expect(lastModified).toMatch(
      /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
    expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
    // The same card keeps its date.
    expect((await get(app, { "A2A-Version": "1.0" })).headers.get("last-modified")).toBe(
      lastModified,
    );
    const since = await get(app, { "A2A-Version": "1.0", "If-Modified-Since": lastModified });
    expect(since.status).toBe(304);
    expect(await since.text()).toBe("");
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await get(app, { "A2A-Version": "1.0", "If-Modified-Since": earlier })).status).toBe(
      200,
    );
    expect((await get(app, { "A2A-Version": "1.0", "If-Modified-Since": "garbage" })).status).toBe(
      200,
    );
    // If-None-Match wins: a stale tag is answered in full whatever the date says.
    const stale = await get(app, {
      "A2A-Version": "1.0",
      "If-None-Match": '"stale"',
      "If-Modified-Since": lastModified,
    });
    expect(stale.status).toBe(200);
  });
});

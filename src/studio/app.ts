/**
 * Studio (`/studio`): the memory inspector page, its script and stylesheet, served by the
 * Worker. Off (403) when LLAMON_ADMIN_TOKEN is unset, like the management API. The page
 * itself holds no data: everything it shows comes from /api/v1 with the bearer token the
 * user types in (kept in sessionStorage). Strict CSP: scripts and styles only from here.
 */
import { Hono } from "hono";
import { adminToken, DISABLED_MESSAGE } from "../admin/auth.ts";
import type { AgentDefinition } from "../agent/define.ts";
import type { Env } from "../worker/env.ts";
import { STUDIO_JS_CORE } from "./client-core.ts";
import { STUDIO_JS_PANELS } from "./client-panels.ts";
import type { StudioLang } from "./i18n.ts";
import { escapeHtml, renderStudioPage } from "./page.ts";
import { STUDIO_CSS } from "./style.ts";

export const STUDIO_JS = `(function () {\n"use strict";\n${STUDIO_JS_CORE}\n${STUDIO_JS_PANELS}\n})();\n`;

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/** ?lang= wins, then the browser's first language (Korean → ko), else English. */
export function studioLang(
  query: string | undefined,
  acceptLanguage: string | undefined,
): StudioLang {
  if (query === "ko" || query === "en") return query;
  const first = (acceptLanguage ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("ko") ? "ko" : first === "" ? "ko" : "en";
}

export function createStudioApp(agent: AgentDefinition): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.use("*", async (c, next) => {
    if (adminToken(c.env) === undefined) {
      return c.html(
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>llamon Studio — off</title><p>llamon Studio: ${escapeHtml(DISABLED_MESSAGE)}</p></html>`,
        403,
        SECURITY_HEADERS,
      );
    }
    await next();
  });
  app.get("/", (c) => {
    const lang = studioLang(c.req.query("lang"), c.req.header("accept-language"));
    return c.html(renderStudioPage({ lang, agentName: agent.name }), 200, {
      ...SECURITY_HEADERS,
      "cache-control": "no-store",
    });
  });
  app.get("/studio.js", (c) =>
    c.body(STUDIO_JS, 200, {
      ...SECURITY_HEADERS,
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-cache",
    }),
  );
  app.get("/studio.css", (c) =>
    c.body(STUDIO_CSS, 200, {
      ...SECURITY_HEADERS,
      "content-type": "text/css; charset=utf-8",
      "cache-control": "no-cache",
    }),
  );
  return app;
}

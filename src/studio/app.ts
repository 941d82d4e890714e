/**
 * Studio (`/studio`): the memory inspector page, its script and stylesheet, served by the
 * Worker. The script is TypeScript in ./client/, bundled at build time into the module
 * ./client.bundle.js (scripts/build-studio.mts) and imported here as text. Off (403) when
 * LLAMON_ADMIN_TOKEN is unset, like the management API. The page itself holds no data:
 * everything it shows comes from /api/v1 with the bearer token the user types in (kept in
 * sessionStorage). Strict CSP: scripts and styles only from here.
 */
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { adminToken, DISABLED_MESSAGE } from "../admin/auth.ts";
import type { AgentDefinition } from "../agent/define.ts";
import type { AppEnv } from "../runtime/http.ts";
import STUDIO_CLIENT from "./client.bundle.js";
import type { StudioLang } from "./i18n.ts";
import { renderDisabledPage, renderStudioPage } from "./page.tsx";
import { STUDIO_CSS } from "./style.ts";

/** The browser script: src/studio/client/, bundled by scripts/build-studio.mts. */
export const STUDIO_JS: string = STUDIO_CLIENT;

/** Strict CSP (scripts, styles and API calls only from here), no framing, no referrer. */
const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    connectSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
  xFrameOptions: "DENY",
  referrerPolicy: "no-referrer",
});

/** ?lang= wins, then the browser's first language (Korean → ko), else English. */
export function studioLang(
  query: string | undefined,
  acceptLanguage: string | undefined,
): StudioLang {
  if (query === "ko" || query === "en") return query;
  const first = (acceptLanguage ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("ko") ? "ko" : first === "" ? "ko" : "en";
}

export function createStudioApp(agent: AgentDefinition): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", securityHeaders);
  app.use("*", async (c, next) => {
    if (adminToken(c.env) === undefined) {
      return c.html(renderDisabledPage(DISABLED_MESSAGE), 403);
    }
    await next();
  });
  app.get("/", (c) => {
    const lang = studioLang(c.req.query("lang"), c.req.header("accept-language"));
    return c.html(renderStudioPage({ lang, agentName: agent.name }), 200, {
      "cache-control": "no-store",
    });
  });
  app.get("/studio.js", (c) =>
    c.body(STUDIO_JS, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-cache",
    }),
  );
  app.get("/studio.css", (c) =>
    c.body(STUDIO_CSS, 200, {
      "content-type": "text/css; charset=utf-8",
      "cache-control": "no-cache",
    }),
  );
  return app;
}

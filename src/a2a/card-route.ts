/**
 * `GET /.well-known/agent-card.json` (and the older `/.well-known/agent.json`): the card in the
 * shape the `A2A-Version` header asks for (card.ts), public — clients read it to learn how
 * to authenticate.
 *
 * Caching (A2A v1.0 §8.6, a SHOULD): the answer carries a strong `ETag` (SHA-256 of the exact
 * body, so the v0.3 and v1.0 shapes have different tags) and `Cache-Control: public,
 * max-age=300`; a request whose `If-None-Match` names the current tag (or `*`) gets 304
 * without a body. `Vary: A2A-Version`, since the header picks the shape.
 *
 * `Last-Modified` (a MAY) is when this isolate first served that exact body: a Worker has no
 * build time of its own, and a later date than the card's real change is what HTTP allows
 * (RFC 9110 §8.8.2.1: never later than the answer's Date). `If-Modified-Since` is honoured
 * only without `If-None-Match` (RFC 9110 §13.1.3); a card that changed has a new body, so a
 * new, later date, and is never answered 304 against an older one.
 */
import { A2A_VERSION_HEADER, AgentCard } from "@a2a-js/sdk";
import type { Context, Hono } from "hono";
import type { Logger } from "../log.ts";
import type { A2AAuthConfig } from "../runtime/auth-config.ts";
import { buildAgentCard, endpointUrl, legacyAgentCard, wantsLegacyCard } from "./card.ts";
import { refusal } from "./guard.ts";
import type { A2AAppOptions } from "./types.ts";

export const AGENT_CARD_PATHS = ["/.well-known/agent-card.json", "/.well-known/agent.json"];

const CACHE_CONTROL = "public, max-age=300";

/** When this isolate first served each card body (by its ETag), as an HTTP date. */
const firstServed = new Map<string, number>();
const MAX_REMEMBERED_CARDS = 16;

function lastModifiedOf(etag: string): number {
  const known = firstServed.get(etag);
  if (known !== undefined) return known;
  // Whole seconds: HTTP dates have no finer resolution.
  const now = Math.floor(Date.now() / 1000) * 1000;
  if (firstServed.size >= MAX_REMEMBERED_CARDS) firstServed.clear();
  firstServed.set(etag, now);
  return now;
}

/** RFC 9110 §13.1.3: unmodified since the client's date (an unparsable date never matches). */
function notModifiedSince(header: string | undefined, lastModified: number): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && lastModified <= since;
}

export function mountCardRoutes<R>(
  app: Hono,
  options: A2AAppOptions<R>,
  guardLog: (c: Context) => Logger,
): void {
  for (const path of AGENT_CARD_PATHS) {
    app.get(path, async (c) => {
      let auth: A2AAuthConfig;
      try {
        auth = options.auth ? options.auth(c) : { mode: "none" };
      } catch (error) {
        guardLog(c).error("a2a: the agent card cannot say how to authenticate", {
          code: "CONFIG_INVALID",
          error: error instanceof Error ? error.message : String(error),
        });
        return refusal(c, error);
      }
      const url = options.card.url ?? endpointUrl(c.req.url, path);
      const card = buildAgentCard(options.card, url, auth);
      const body = JSON.stringify(
        wantsLegacyCard(c.req.header(A2A_VERSION_HEADER))
          ? legacyAgentCard(card)
          : AgentCard.toJSON(card),
      );
      const etag = await entityTag(body);
      const lastModified = lastModifiedOf(etag);
      const headers = {
        ETag: etag,
        "Last-Modified": new Date(lastModified).toUTCString(),
        Vary: A2A_VERSION_HEADER,
        "Cache-Control": CACHE_CONTROL,
      };
      const ifNoneMatch = c.req.header("If-None-Match");
      const unchanged =
        ifNoneMatch !== undefined
          ? matchesIfNoneMatch(ifNoneMatch, etag)
          : notModifiedSince(c.req.header("If-Modified-Since"), lastModified);
      if (unchanged) return c.body(null, 304, headers);
      return c.body(body, 200, { ...headers, "Content-Type": "application/json" });
    });
  }
}

/** A strong entity tag of `body`: its SHA-256, base64url, quoted. */
export async function entityTag(body: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)),
  );
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  const b64 = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `"${b64}"`;
}

/**
 * RFC 9110 §13.1.2: `If-None-Match` matches when it is `*` or lists the tag; comparison is
 * weak, so `W/"x"` matches `"x"`.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return trimmed.split(",").some((tag) => opaque(tag) === opaque(etag));
}

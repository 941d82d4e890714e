/**
 * A2A version negotiation (A2A v1.0 §3.6), for every method of both JSON-RPC dialects:
 *
 * - the `A2A-Version` request header names `Major.Minor`; a patch number is ignored
 *   (`1.0.2` is 1.0), a missing or empty header means 0.3;
 * - a version no interface of the card serves (`99.0`, `0.2`, `1.1`, text) is refused with
 *   -32009 VersionNotSupportedError, before the method is looked at;
 * - a supported version decides the dialect: `A2A-Version: 1.0` with `message/send`, or
 *   `A2A-Version: 0.3` with `SendMessage`, is a method that version does not have (-32601).
 *
 * One accepted deviation: without a header, a v1.0 method name (`SendMessage`, …) is still
 * served as v1.0. The two versions' method names never overlap, so the name says which
 * version the client speaks, and clients that predate the header keep working. An explicit
 * header is always honoured.
 *
 * The versions served are read from the card's `supportedInterfaces`, so the card and the
 * endpoint cannot disagree.
 */
import type { AgentCard } from "@a2a-js/sdk";
import { VersionNotSupportedError } from "@a2a-js/sdk/errors";
import { getSupportedVersions } from "@a2a-js/sdk/server";
import type { Dialect } from "./rpc-errors.ts";

export type VersionOutcome =
  | { ok: true; version: string; dialect: Dialect; explicit: boolean }
  | { ok: false; error: VersionNotSupportedError };

/** `Major.Minor` of a header value (patch and later segments dropped), or undefined. */
export function majorMinor(header: string): string | undefined {
  const match = /^(\d{1,4})(?:\.(\d{1,4}))?(?:\.\d{1,9})*$/.exec(header.trim());
  if (match === null) return undefined;
  return `${Number(match[1])}.${Number(match[2] ?? 0)}`;
}

export function dialectOfVersion(version: string): Dialect {
  return version.startsWith("0.") ? "v0.3" : "v1.0";
}

/**
 * The requested version of a call to `binding`, checked against what `card` declares.
 * `header` is the raw `A2A-Version` value (undefined when absent).
 */
export function negotiateVersion(
  header: string | undefined,
  card: AgentCard,
  binding: "JSONRPC" | "HTTP+JSON",
): VersionOutcome {
  const supported = getSupportedVersions(card, binding);
  const raw = header?.trim() ?? "";
  const explicit = raw !== "";
  const version = explicit ? majorMinor(raw) : "0.3";
  if (version === undefined || !supported.has(version)) {
    const shown = raw.length > 32 ? `${raw.slice(0, 32)}…` : raw;
    return {
      ok: false,
      error: new VersionNotSupportedError(
        `A2A-Version ${JSON.stringify(shown)} is not supported by this ${binding} interface; supported: ${[...supported].sort().join(", ")}`,
      ),
    };
  }
  return { ok: true, version, dialect: dialectOfVersion(version), explicit };
}

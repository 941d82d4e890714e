/**
 * Who may call the agent over A2A: the `A2A_AUTH` mode and its settings, from the Worker's
 * env (wrangler.toml `[vars]`, `.dev.vars`, secrets) over what `defineAgent({ auth })` sets
 * in code. Validated with zod; a bad or incomplete setting is a CONFIG_INVALID that names the
 * variable (the A2A endpoint then answers every call with an error, never an open door).
 *
 * | mode      | the caller sends                                      | principal            |
 * |-----------|-------------------------------------------------------|----------------------|
 * | `none`    | nothing                                               | `anonymous`          |
 * | `api_key` | `Authorization: Bearer <key>`; `A2A_API_KEYS` holds `principal=<sha256 hex>` pairs | the key's principal |
 * | `jwt`     | `Authorization: Bearer <JWT>` or Cloudflare Access's `Cf-Access-Jwt-Assertion` | the `sub` claim (or `A2A_JWT_PRINCIPAL_CLAIM`) |
 *
 * There is no default: an agent without A2A_AUTH refuses A2A calls until it is set (`llamon
 * run` sets `none` for local development when the project does not say).
 * Keys are never in code: only their SHA-256 hashes, in the `A2A_API_KEYS` secret.
 */
import { z } from "zod";
import { LlamonError } from "../errors.ts";
import { zodIssueLines } from "../zod-issues.ts";
import { principalProblem } from "./thread-keys.ts";

export const A2A_AUTH_MODES = ["none", "api_key", "jwt"] as const;
export type A2AAuthMode = (typeof A2A_AUTH_MODES)[number];

/** What `defineAgent({ auth })` may set (snake_case like the memory keys; no secrets). */
export interface A2AAuthSettings {
  readonly mode?: A2AAuthMode | undefined;
  readonly jwt?:
    | {
        readonly jwks_url?: string | undefined;
        readonly issuer?: string | undefined;
        readonly audience?: string | readonly string[] | undefined;
        readonly principal_claim?: string | undefined;
        readonly clock_skew_seconds?: number | undefined;
      }
    | undefined;
}

/** One accepted API key: who it is, and the SHA-256 of the key (32 bytes). */
export interface ApiKeyEntry {
  readonly principal: string;
  readonly sha256: Uint8Array;
}

export interface JwtSettings {
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly principalClaim: string;
  readonly clockSkewSeconds: number;
}

export type A2AAuthConfig =
  | { readonly mode: "none" }
  | { readonly mode: "api_key"; readonly keys: readonly ApiKeyEntry[] }
  | { readonly mode: "jwt"; readonly jwt: JwtSettings };

export const DEFAULT_PRINCIPAL_CLAIM = "sub";
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;
const MAX_CLOCK_SKEW_SECONDS = 600;

/** Empty strings (a `KEY=` line of .dev.vars) mean unset. */
const optionalText = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined));

/** The A2A_* variables of the Worker's env, as strings (checked in detail below). */
export const a2aAuthEnvShape = {
  A2A_AUTH: optionalText,
  A2A_API_KEYS: optionalText,
  A2A_JWT_JWKS_URL: optionalText,
  A2A_JWT_ISSUER: optionalText,
  A2A_JWT_AUDIENCE: optionalText,
  A2A_JWT_PRINCIPAL_CLAIM: optionalText,
  A2A_JWT_CLOCK_SKEW_SECONDS: optionalText,
};

const envSchema = z.looseObject(a2aAuthEnvShape);
/** The A2A_* variables as the Worker's env schema (runtime/env.ts) parsed them. */
export type A2AAuthVars = Readonly<Partial<z.infer<typeof envSchema>>>;

const modeSchema = z
  .string()
  .transform((v) => v.replace("-", "_"))
  .pipe(z.enum(A2A_AUTH_MODES, { error: "must be none, api_key or jwt" }));

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * `A2A_API_KEYS`: `principal=<hex sha256 of the key>` entries separated by commas (spaces
 * and newlines around them are ignored). A principal may have several keys (rotation); a
 * hash may appear once.
 */
export function parseApiKeys(text: string): ApiKeyEntry[] {
  const entries: ApiKeyEntry[] = [];
  const seen = new Set<string>();
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  for (const [index, item] of items.entries()) {
    const at = item.lastIndexOf("=");
    const where = `A2A_API_KEYS entry ${index + 1}`;
    if (at < 0) {
      throw configError(`${where} must be principal=<sha256 hex of the key>, not a bare value`);
    }
    const principal = item.slice(0, at).trim();
    const hash = item
      .slice(at + 1)
      .trim()
      .toLowerCase();
    const problem = principalProblem(principal);
    if (problem !== undefined) throw configError(`${where}: the principal ${problem}`);
    if (!HEX_SHA256.test(hash)) {
      throw configError(
        `${where} (${principal}): the value must be the 64-character hex SHA-256 of the key, not the key itself`,
      );
    }
    if (seen.has(hash)) throw configError(`${where} (${principal}): this hash is listed twice`);
    seen.add(hash);
    entries.push({ principal, sha256: hexBytes(hash) });
  }
  return entries;
}

function configError(message: string): LlamonError {
  return new LlamonError("CONFIG_INVALID", message);
}

function jwksUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw configError(`A2A_JWT_JWKS_URL "${value}" is not a URL`);
  }
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
    throw configError("A2A_JWT_JWKS_URL must be an https:// URL (http:// only for localhost)");
  }
  return url.toString();
}

function resolveJwt(env: A2AAuthVars, code: A2AAuthSettings["jwt"]): JwtSettings {
  const url = env.A2A_JWT_JWKS_URL ?? code?.jwks_url;
  const issuer = env.A2A_JWT_ISSUER ?? code?.issuer;
  const audienceText = env.A2A_JWT_AUDIENCE;
  const audience =
    audienceText !== undefined
      ? audienceText.split(",").map((a) => a.trim())
      : typeof code?.audience === "string"
        ? [code.audience]
        : [...(code?.audience ?? [])];
  const missing = [
    url === undefined ? "A2A_JWT_JWKS_URL" : undefined,
    issuer === undefined ? "A2A_JWT_ISSUER" : undefined,
    audience.filter((a) => a !== "").length === 0 ? "A2A_JWT_AUDIENCE" : undefined,
  ].filter((name) => name !== undefined);
  if (missing.length > 0 || url === undefined || issuer === undefined) {
    throw configError(
      `A2A_AUTH=jwt needs ${missing.join(", ")}: the JWKS URL, the issuer (iss) and the audience (aud) the tokens must carry`,
    );
  }
  const skewText = env.A2A_JWT_CLOCK_SKEW_SECONDS;
  const skew = skewText === undefined ? code?.clock_skew_seconds : Number(skewText);
  if (
    skew !== undefined &&
    (!Number.isInteger(skew) || skew < 0 || skew > MAX_CLOCK_SKEW_SECONDS)
  ) {
    throw configError(
      `A2A_JWT_CLOCK_SKEW_SECONDS must be a whole number of seconds from 0 to ${MAX_CLOCK_SKEW_SECONDS}`,
    );
  }
  return {
    jwksUrl: jwksUrl(url),
    issuer,
    audience: audience.filter((a) => a !== ""),
    principalClaim: env.A2A_JWT_PRINCIPAL_CLAIM ?? code?.principal_claim ?? DEFAULT_PRINCIPAL_CLAIM,
    clockSkewSeconds: skew ?? DEFAULT_CLOCK_SKEW_SECONDS,
  };
}

export const AUTH_NOT_SET =
  "A2A_AUTH is not set, so the agent refuses every A2A call: set it to api_key or jwt (and their secrets; see docs/auth.en.md), or to none for local development";

/** The effective auth config of the Worker's env (parsed vars) and the agent's code settings. */
export function resolveA2AAuth(
  vars: A2AAuthVars,
  code: A2AAuthSettings | undefined,
): A2AAuthConfig {
  const rawMode = vars.A2A_AUTH ?? code?.mode;
  if (rawMode === undefined) throw configError(AUTH_NOT_SET);
  const mode = modeSchema.safeParse(rawMode);
  if (!mode.success) {
    const lines = zodIssueLines(mode.error.issues, { rootField: "A2A_AUTH" });
    throw configError(`invalid A2A_AUTH "${rawMode}": ${lines.join("; ")}`);
  }
  switch (mode.data) {
    case "none":
      return { mode: "none" };
    case "api_key": {
      if (vars.A2A_API_KEYS === undefined) {
        throw configError(
          "A2A_AUTH=api_key needs the secret A2A_API_KEYS (principal=<sha256 hex of the key>, comma-separated): `wrangler secret put A2A_API_KEYS`",
        );
      }
      const keys = parseApiKeys(vars.A2A_API_KEYS);
      if (keys.length === 0) throw configError("A2A_API_KEYS lists no key");
      return { mode: "api_key", keys };
    }
    case "jwt":
      return { mode: "jwt", jwt: resolveJwt(vars, code?.jwt) };
  }
}

/** Checks defineAgent's `auth` (the shape; what env adds is checked per request). */
export function parseA2AAuthSettings(value: unknown): A2AAuthSettings {
  const schema = z.strictObject({
    mode: modeSchema.optional(),
    jwt: z
      .strictObject({
        jwks_url: z.string().optional(),
        issuer: z.string().optional(),
        audience: z.union([z.string(), z.array(z.string())]).optional(),
        principal_claim: z.string().min(1).optional(),
        clock_skew_seconds: z.int().min(0).max(MAX_CLOCK_SKEW_SECONDS).optional(),
      })
      .optional(),
  });
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const lines = zodIssueLines(parsed.error.issues, { prefix: ["auth"] });
    throw configError(`invalid agent definition — ${lines.join("; ")}`);
  }
  return parsed.data;
}

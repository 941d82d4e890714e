/**
 * Who is calling, from the request headers alone (the body is not read yet): the A2A
 * endpoint's authentication, the same for every method (message sends, tasks, the
 * authenticated extended card) and reusable by any other A2A binding.
 *
 * - `none` → `anonymous`, not authenticated.
 * - `api_key` → `Authorization: Bearer <key>` (api-key.ts).
 * - `jwt` → `Authorization: Bearer <JWT>`, else Cloudflare Access's
 *   `Cf-Access-Jwt-Assertion` header (jwt.ts).
 *
 * Failures throw a LlamonError: AUTH_REQUIRED (nothing usable was sent), AUTH_INVALID (it was
 * checked and refused) — both 401 with `details.challenge` for `WWW-Authenticate` — or
 * AUTH_UNAVAILABLE (503: the identity provider's keys could not be read).
 */
import { LlamonError } from "../../errors.ts";
import type { A2AAuthConfig, A2AAuthMode } from "../../runtime/auth-config.ts";
import { ANONYMOUS_PRINCIPAL } from "../../runtime/thread-keys.ts";
import { principalOfApiKey } from "./api-key.ts";
import { verifyJwt } from "./jwt.ts";

export interface A2ACaller {
  readonly principal: string;
  /** Credentials were checked (false only for A2A_AUTH=none). */
  readonly authenticated: boolean;
  readonly mode: A2AAuthMode;
}

export const CF_ACCESS_JWT_HEADER = "Cf-Access-Jwt-Assertion";
const REALM = 'Bearer realm="a2a"';
/** RFC 6750 b64token; longer values are refused before hashing or parsing. */
const TOKEN_RE = /^[A-Za-z0-9._~+/-]+=*$/;
const MAX_TOKEN_CHARS = 8192;

export interface AuthErrorDetails {
  /** The `WWW-Authenticate` value of the 401. */
  readonly challenge: string;
}

function challengeOf(error: "invalid_request" | "invalid_token" | undefined, text: string): string {
  if (error === undefined) return REALM;
  // A quoted-string: no quotes, backslashes or non-ASCII inside.
  const description = text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, "?");
  return `${REALM}, error="${error}", error_description="${description}"`;
}

function required(message: string): LlamonError<AuthErrorDetails> {
  return new LlamonError("AUTH_REQUIRED", message, {
    details: { challenge: challengeOf(undefined, message) },
  });
}

function refused(message: string): LlamonError<AuthErrorDetails> {
  return new LlamonError("AUTH_INVALID", message, {
    details: { challenge: challengeOf("invalid_token", message) },
  });
}

/** The bearer token of `Authorization`, undefined when absent; throws when malformed. */
function bearerToken(headers: Headers, what: string): string | undefined {
  const value = headers.get("authorization");
  if (value === null || value.trim() === "") return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(value);
  if (match === null) {
    throw required(`the Authorization header must be \`Bearer <${what}>\``);
  }
  const token = match[1] as string;
  if (token.length > MAX_TOKEN_CHARS || !TOKEN_RE.test(token)) {
    throw refused(`the bearer ${what} is malformed`);
  }
  return token;
}

/** The caller of a request under `config`; throws as described in the file header. */
export async function authenticate(headers: Headers, config: A2AAuthConfig): Promise<A2ACaller> {
  switch (config.mode) {
    case "none":
      return { principal: ANONYMOUS_PRINCIPAL, authenticated: false, mode: "none" };
    case "api_key": {
      const key = bearerToken(headers, "API key");
      if (key === undefined) {
        throw required("this agent requires an API key: send `Authorization: Bearer <key>`");
      }
      const principal = await principalOfApiKey(key, config.keys);
      if (principal === undefined)
        throw refused("the API key is not accepted (unknown or revoked)");
      return { principal, authenticated: true, mode: "api_key" };
    }
    case "jwt": {
      const token = bearerToken(headers, "JWT") ?? headers.get(CF_ACCESS_JWT_HEADER) ?? undefined;
      if (token === undefined || token.trim() === "") {
        throw required(
          `this agent requires a JWT from its identity provider: send \`Authorization: Bearer <JWT>\` (behind Cloudflare Access, the \`${CF_ACCESS_JWT_HEADER}\` header counts)`,
        );
      }
      if (token.length > MAX_TOKEN_CHARS) throw refused("the JWT is too long");
      try {
        const principal = await verifyJwt(token.trim(), config.jwt);
        return { principal, authenticated: true, mode: "jwt" };
      } catch (error) {
        if (error instanceof LlamonError && error.code === "AUTH_INVALID") {
          throw refused(error.message);
        }
        throw error;
      }
    }
  }
}

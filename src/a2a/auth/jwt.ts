/**
 * `A2A_AUTH=jwt`: the token is verified with `jose` against the JWKS of the identity
 * provider (an OIDC provider, or Cloudflare Access at
 * `https://<team>.cloudflareaccess.com/cdn-cgi/access/certs`): signature, issuer, audience,
 * expiry (required) and not-before, with the configured clock skew. The principal is one
 * claim of the token (`sub` by default).
 *
 * The key set is fetched on first use and cached per isolate by jose (re-fetched when a
 * token names an unknown key, at most once per cooldown), so a verification normally costs
 * no network round trip.
 */
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";
import { LlamonError } from "../../errors.ts";
import type { JwtSettings } from "../../runtime/auth-config.ts";
import { principalProblem } from "../../runtime/thread-keys.ts";

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** One key set per JWKS URL and isolate (jose caches the keys inside it). */
const keySets = new Map<string, KeySet>();
const MAX_KEY_SETS = 8;

function keySetFor(url: string): KeySet {
  let set = keySets.get(url);
  if (set === undefined) {
    if (keySets.size >= MAX_KEY_SETS) keySets.clear();
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    keySets.set(url, set);
  }
  return set;
}

const invalid = (message: string) => new LlamonError("AUTH_INVALID", message);

/** What a jose failure means for the caller (see the error table: 401 vs 503). */
function describeFailure(error: unknown, settings: JwtSettings): LlamonError {
  if (error instanceof errors.JWTExpired) return invalid("the token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    return invalid(`the token's "${error.claim}" claim is not accepted (${error.message})`);
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return invalid("the token's signature does not verify with the identity provider's keys");
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  ) {
    return invalid(`the token is not a usable signed JWT (${error.message})`);
  }
  return new LlamonError(
    "AUTH_UNAVAILABLE",
    `the identity provider's keys could not be read from ${settings.jwksUrl}`,
    { cause: error },
  );
}

/** The principal of a valid token; throws AUTH_INVALID (401) or AUTH_UNAVAILABLE (503). */
export async function verifyJwt(token: string, settings: JwtSettings): Promise<string> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySetFor(settings.jwksUrl), {
      issuer: settings.issuer,
      audience: [...settings.audience],
      clockTolerance: settings.clockSkewSeconds,
      requiredClaims: ["exp"],
    }));
  } catch (error) {
    throw describeFailure(error, settings);
  }
  const claim = settings.principalClaim;
  const principal = payload[claim];
  if (typeof principal !== "string") {
    throw invalid(`the token has no "${claim}" claim (a string) to identify the caller`);
  }
  const problem = principalProblem(principal);
  if (problem !== undefined) throw invalid(`the token's "${claim}" claim ${problem}`);
  return principal;
}

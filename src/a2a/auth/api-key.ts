/**
 * `A2A_AUTH=api_key`: the bearer key is hashed (SHA-256) and compared with every hash in
 * `A2A_API_KEYS` in constant time (all entries, no early exit), so neither a key nor which
 * entry matched leaks through timing. Only hashes are configured, so the secret does not
 * hold a usable key, and removing one entry revokes that key alone.
 */
import type { ApiKeyEntry } from "../../runtime/auth-config.ts";

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The principal of `key`, or undefined when no configured hash matches it. */
export async function principalOfApiKey(
  key: string,
  entries: readonly ApiKeyEntry[],
): Promise<string | undefined> {
  const digest = await sha256(key);
  let found: string | undefined;
  for (const entry of entries) {
    const match = sameBytes(digest, entry.sha256);
    if (match && found === undefined) found = entry.principal;
  }
  return found;
}

/**
 * `A2A_AUTH=api_key`: the bearer key is hashed (SHA-256) and compared with every hash in
 * `A2A_API_KEYS` in constant time (../../runtime/secrets.ts; all entries, no early exit), so
 * neither a key nor which entry matched leaks through timing. Only hashes are configured, so
 * the secret does not hold a usable key, and removing one entry revokes that key alone.
 */
import type { ApiKeyEntry } from "../../runtime/auth-config.ts";
import { secretsEqual } from "../../runtime/secrets.ts";

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

async function sha256Hex(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/** The principal of `key`, or undefined when no configured hash matches it. */
export async function principalOfApiKey(
  key: string,
  entries: readonly ApiKeyEntry[],
): Promise<string | undefined> {
  const digest = await sha256Hex(key);
  let found: string | undefined;
  for (const entry of entries) {
    const match = await secretsEqual(digest, hex(entry.sha256));
    if (match && found === undefined) found = entry.principal;
  }
  return found;
}

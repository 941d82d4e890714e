/// <reference path="../types/pg-sasl.d.ts" />
/**
 * Password check of the local Neon proxy: a SCRAM-SHA-256 exchange run against a role's
 * stored verifier (`pg_authid.rolpassword`, `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`).
 *
 * Neon's proxy does the same: it fetches the role's SCRAM secret and runs the exchange itself
 * before it connects (neondatabase/neon proxy/src/serverless/backend.rs
 * `authenticate_with_password`, ~49–103: `get_role_secret`, then
 * `validate_password_and_exchange`). The client half is node-postgres's own
 * (`pg/lib/crypto/sasl.js`: SASLprep, PBKDF2, the proof); the server half here is RFC 5802's
 * check of the proof against StoredKey, as Postgres makes it (`verify_client_proof`).
 * Dev and tests only.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";
import { LlamonError } from "llamon/errors";
import { continueSession, startSession } from "pg/lib/crypto/sasl.js";

interface Verifier {
  readonly iterations: number;
  /** base64, as in the verifier and the server-first message. */
  readonly salt: string;
  readonly storedKey: Buffer;
}

const VERIFIER = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/;

export function parseScramVerifier(text: string): Verifier | undefined {
  const m = VERIFIER.exec(text);
  if (m === null) return undefined;
  const iterations = Number(m[1]);
  const storedKey = Buffer.from(m[3] as string, "base64");
  if (!Number.isInteger(iterations) || iterations < 1 || storedKey.length !== 32) return undefined;
  return { iterations, salt: m[2] as string, storedKey };
}

/** Verified (verifier, password) pairs: PBKDF2 with 4096 rounds per request is not free. */
const verified = new Set<string>();
const VERIFIED_MAX = 1000;

/** Whether `password` matches the SCRAM-SHA-256 verifier `stored` (false for any other form). */
export async function scramPasswordMatches(stored: string, password: string): Promise<boolean> {
  const verifier = parseScramVerifier(stored);
  if (verifier === undefined || password === "") return false;
  const memo = createHash("sha256").update(stored).update("\0").update(password).digest("hex");
  if (verified.has(memo)) return true;
  const session = startSession(["SCRAM-SHA-256"]);
  const clientFirstBare = `n=*,r=${session.clientNonce}`;
  const serverFirst = `r=${session.clientNonce}${randomBytes(18).toString("base64")},s=${verifier.salt},i=${verifier.iterations}`;
  try {
    await continueSession(session, password, serverFirst);
  } catch {
    return false;
  }
  const proofAt = session.response.lastIndexOf(",p=");
  if (proofAt < 0) return false;
  const clientFinalWithoutProof = session.response.slice(0, proofAt);
  const proof = Buffer.from(session.response.slice(proofAt + 3), "base64");
  const authMessage = `${clientFirstBare},${serverFirst},${clientFinalWithoutProof}`;
  const signature = createHmac("sha256", verifier.storedKey).update(authMessage).digest();
  if (proof.length !== signature.length) return false;
  const clientKey = Buffer.alloc(proof.length);
  for (let i = 0; i < proof.length; i++)
    clientKey[i] = (proof[i] as number) ^ (signature[i] as number);
  const ok = timingSafeEqual(createHash("sha256").update(clientKey).digest(), verifier.storedKey);
  if (ok) {
    if (verified.size >= VERIFIED_MAX) verified.clear();
    verified.add(memo);
  }
  return ok;
}

/**
 * A SCRAM-SHA-256 verifier for `password` (4096 iterations, a random salt), in the form
 * `CREATE ROLE … PASSWORD '…'` stores as is: the server never sees the password itself, and
 * the role's password is SCRAM whatever the server's `password_encryption`. Printable ASCII
 * only (what SASLprep leaves unchanged): llamon makes these passwords itself.
 */
export function scramVerifier(password: string): string {
  if (!/^[\x21-\x7e]+$/.test(password)) {
    throw new LlamonError("INTERNAL", "a generated role password must be printable ASCII");
  }
  const salt = randomBytes(16);
  const iterations = 4096;
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

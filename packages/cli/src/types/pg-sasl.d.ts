/**
 * The client side of SCRAM-SHA-256 in node-postgres (`pg/lib/crypto/sasl.js`, exported by
 * pg's package.json under `./lib/*`; pg ships no types for it). The local Neon proxy runs it
 * against a role's stored verifier to check a password (src/dev/scram.ts).
 */
declare module "pg/lib/crypto/sasl.js" {
  export interface ScramSession {
    mechanism: string;
    clientNonce: string;
    /** What the client sends next: client-first, then client-final (with `p=` the proof). */
    response: string;
    message: string;
  }
  export function startSession(mechanisms: string[], stream?: unknown): ScramSession;
  export function continueSession(
    session: ScramSession,
    password: string,
    serverData: string,
    stream?: unknown,
  ): Promise<void>;
}

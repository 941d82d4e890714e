/**
 * The one comparison of secrets (the admin token, A2A API keys): Hono's `timingSafeEqual`,
 * which hashes both sides with SHA-256 before comparing them without an early exit, so
 * neither the content nor the length of the expected secret leaks through timing. It runs
 * the same in workerd and in Node (Web Crypto).
 */
import { timingSafeEqual } from "hono/utils/buffer";

export function secretsEqual(given: string, expected: string): Promise<boolean> {
  return timingSafeEqual(given, expected);
}

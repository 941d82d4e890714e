/**
 * The one comparison of secrets (the admin token, A2A API keys): Hono's `timingSafeEqual`,
 * which compares the SHA-256 digests of both sides (and the sides themselves) without an
 * early exit, so a guess learns nothing from where it first differs. It runs the same in
 * workerd and in Node (Web Crypto).
 */
import { timingSafeEqual } from "hono/utils/buffer";

export function secretsEqual(given: string, expected: string): Promise<boolean> {
  return timingSafeEqual(given, expected);
}

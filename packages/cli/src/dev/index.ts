/**
 * `llamon/dev`: Node-side helpers for a project's tests and local tools — never imported by a
 * Worker. `startTestDatabase()` gives the Worker under test a migrated, throwaway Postgres
 * behind the Neon-protocol proxy.
 */
export { type NeonProxy, type NeonProxyOptions, startNeonProxy } from "./neon-http-proxy.ts";
export { startTestDatabase, type TestDatabase } from "./test-database.ts";
export { type ViteAlias, wranglerAliases } from "./wrangler-aliases.ts";

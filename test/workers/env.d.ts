/// <reference types="@cloudflare/vitest-plugin/types" />
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../../src/worker/index.ts");
  }
  interface Env {
    AGENT_ID: string;
    LLAMON_NEON_FETCH_ENDPOINT: string;
    POSTGRES_MEMORY_DSN: string;
    LLAMON_TEST_BACKEND: string;
    MIGRATION_COUNT: number;
    THREADS: DurableObjectNamespace<import("../../src/durable/thread-do.ts").ThreadDO>;
    SUMMARY_QUEUE: Queue;
    TEST_JWKS_URL: string;
    TEST_JWT_PRIVATE_JWK: string;
    /** The fake embeddings server's base URL (workers-semantic only). */
    TEST_EMBEDDINGS_URL: string;
    /** The fake streaming chat model's base URL (test/helpers/fake-llm.ts; `workers` only). */
    TEST_FAKE_LLM_URL: string;
    TEST_RATE_LIMITER: { limit(options: { key: string }): Promise<{ success: boolean }> };
  }
}

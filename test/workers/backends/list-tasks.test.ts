/**
 * ListTasks through the Worker on the Durable Object backends (this file runs in
 * `workers-sqlite` and `workers-in-memory`; the case is ../list-tasks-cases.ts).
 */
import { env } from "cloudflare:test";
import { describe, it } from "vitest";
import { listTasksCase } from "../list-tasks-cases.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;

describe(`ListTasks (${backend})`, () => {
  it(`filters, pages and scopes to the caller; erase takes tasks out (${backend})`, async () => {
    await listTasksCase({});
  });
});

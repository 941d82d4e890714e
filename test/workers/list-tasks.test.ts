/**
 * ListTasks through the Worker with memory postgres (wrangler.toml's); sqlite and
 * in_memory run the same case in backends/list-tasks.test.ts. Memory off keeps no task, so it
 * lists none (R11.3, memory-off-tasks.test.ts).
 */
import { describe, it } from "vitest";
import { listTasksCase } from "./list-tasks-cases.ts";

describe("ListTasks (postgres)", () => {
  it("filters, pages and scopes to the caller; erase takes tasks out (postgres)", async () => {
    await listTasksCase({});
  });
});

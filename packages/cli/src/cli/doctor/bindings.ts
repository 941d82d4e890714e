/**
 * `llamon doctor`'s binding checks: the THREADS Durable Object with SQLite storage, and the
 * summary queue (with its consumer and dead-letter queue) when summaries are on.
 */
import type { MemoryConfig } from "llamon/node";
import { type Check, ok, type ProjectFacts, problem, type Toml, tables, warning } from "./types.ts";

export function bindingChecks(facts: ProjectFacts, memory: MemoryConfig | undefined): Check[] {
  if (facts.toml === undefined) return [];
  const checks: Check[] = [];
  const durable = facts.toml.durable_objects as Toml | undefined;
  const bindings = tables(durable, "bindings");
  const threads = bindings.find((b) => b.name === "THREADS");
  if (threads === undefined || threads.class_name !== "ThreadDO") {
    checks.push(
      problem(
        "bindings",
        "THREADS",
        threads === undefined
          ? "no THREADS Durable Object binding: conversations cannot be serialised or kept"
          : `THREADS is bound to class ${String(threads.class_name)}, not ThreadDO`,
        'add to wrangler.toml:\n[[durable_objects.bindings]]\nname = "THREADS"\nclass_name = "ThreadDO"\n(and export { ThreadDO } from "llamon/worker" in the Worker entry)',
      ),
    );
  } else {
    checks.push(ok("bindings", "THREADS", "Durable Object THREADS → ThreadDO"));
  }
  const migrations = tables(facts.toml, "migrations");
  const sqlite = migrations.some(
    (m) => Array.isArray(m.new_sqlite_classes) && m.new_sqlite_classes.includes("ThreadDO"),
  );
  const kv = migrations.some(
    (m) => Array.isArray(m.new_classes) && m.new_classes.includes("ThreadDO"),
  );
  if (!sqlite) {
    checks.push(
      problem(
        "bindings",
        "ThreadDO migration",
        kv
          ? "ThreadDO is declared with new_classes (key-value storage), but llamon's object needs SQLite storage"
          : "no [[migrations]] entry creates ThreadDO",
        kv
          ? "a new project: use new_sqlite_classes instead; a deployed one cannot change its class's storage — rename the class in a new migration"
          : 'add to wrangler.toml:\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["ThreadDO"]',
      ),
    );
  } else {
    checks.push(ok("bindings", "ThreadDO migration", "ThreadDO has SQLite storage"));
  }
  const users = [
    ...(memory?.summarize ? ["summaries (MEMORY_SUMMARIZE)"] : []),
    ...(memory?.facts_mode === "llm" ? ["llm facts (MEMORY_FACTS_MODE=llm)"] : []),
  ];
  if (memory?.enabled && users.length > 0) {
    checks.push(summaryQueueCheck(facts.toml, users.join(" and ")));
  }
  return checks;
}

/** The queue of summaries and llm facts jobs; `users`: what is on that needs it. */
function summaryQueueCheck(toml: Toml, users: string): Check {
  const queues = toml.queues as Toml | undefined;
  const producer = tables(queues, "producers").find((p) => p.binding === "SUMMARY_QUEUE");
  const name = typeof producer?.queue === "string" ? producer.queue : undefined;
  const consumer = tables(queues, "consumers").find((c) => c.queue === name);
  const worker = typeof toml.name === "string" ? toml.name : "my-agent";
  const block = `[[queues.producers]]\nbinding = "SUMMARY_QUEUE"\nqueue = "${worker}-summaries"\n[[queues.consumers]]\nqueue = "${worker}-summaries"\nmax_batch_size = 10\nmax_batch_timeout = 5\nmax_retries = 3\ndead_letter_queue = "${worker}-summaries-dlq"`;
  if (name === undefined) {
    return problem(
      "bindings",
      "SUMMARY_QUEUE",
      `${users} ${users.includes(" and ") ? "are" : "is"} on but there is no SUMMARY_QUEUE producer binding`,
      `add to wrangler.toml:\n${block}\nthen create the queues: npx wrangler queues create ${worker}-summaries && npx wrangler queues create ${worker}-summaries-dlq`,
    );
  }
  if (consumer === undefined) {
    return problem(
      "bindings",
      "SUMMARY_QUEUE",
      `SUMMARY_QUEUE sends to "${name}", but this Worker does not consume it, so its jobs never run (${users})`,
      `add to wrangler.toml:\n[[queues.consumers]]\nqueue = "${name}"\nmax_batch_size = 10\nmax_batch_timeout = 5\nmax_retries = 3\ndead_letter_queue = "${name}-dlq"`,
    );
  }
  if (typeof consumer.dead_letter_queue !== "string") {
    return warning(
      "bindings",
      "SUMMARY_QUEUE",
      `the consumer of "${name}" has no dead_letter_queue: jobs that keep failing are dropped silently`,
      `add dead_letter_queue = "${name}-dlq" to its [[queues.consumers]] and run npx wrangler queues create ${name}-dlq`,
    );
  }
  return ok(
    "bindings",
    "SUMMARY_QUEUE",
    `queue ${name} (consumed here, dead letters to ${String(consumer.dead_letter_queue)})`,
  );
}

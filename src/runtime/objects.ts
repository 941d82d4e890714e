/**
 * The Durable Objects of the THREADS binding, by role. One class (durable/thread-do.ts)
 * serves every role; the object's name says which one it plays, so no two roles ever share
 * an object (agent ids cannot contain ':'):
 *
 * | role          | name                          | holds                                      |
 * |---------------|-------------------------------|--------------------------------------------|
 * | conversation  | `thread:<agent>:<context>`    | the turn lock, the thread (in_memory/sqlite), the task index of the conversation |
 * | thread index  | `index:<agent>`               | the agent's conversation list (object backends) |
 * | task record   | `task:<task-store key>`       | one A2A task record                        |
 * | task list     | `tasks:<agent>:<principal>`   | a copy of each of the principal's task records, for ListTasks |
 * | settings      | `settings:<agent>`            | the run-time MemoryConfig layer (object backends) |
 *
 * These names are stored data: objects created by earlier releases are found under them, so
 * they never change. A caller reaches an object with {@link threadsObject}, typed by the
 * role interface it declares (ThreadDO implements each one, which the compiler checks there).
 */
import { LlamonError } from "../errors.ts";
import type { Env, ObjectNamespace } from "./env.ts";

export type ObjectRole = "conversation" | "thread_index" | "task_record" | "task_list" | "settings";

const PREFIX: Record<ObjectRole, string> = {
  conversation: "thread:",
  thread_index: "index:",
  task_record: "task:",
  task_list: "tasks:",
  settings: "settings:",
};

/** The conversation object of (agent, context id). */
export function threadObjectName(agentId: string, contextId: string): string {
  return `${PREFIX.conversation}${agentId}:${contextId}`;
}

/** The object listing an agent's conversations on the Durable Object backends. */
export function threadIndexObjectName(agentId: string): string {
  return `${PREFIX.thread_index}${agentId}`;
}

/** The object holding one A2A task record, by its task-store key (`a2a-task:<agent>:<task>`). */
export function taskRecordObjectName(key: string): string {
  return `${PREFIX.task_record}${key}`;
}

/** The object listing one principal's A2A tasks of an agent (ListTasks). */
export function taskListObjectName(agentId: string, principal: string): string {
  return `${PREFIX.task_list}${agentId}:${principal}`;
}

/** The object holding an agent's run-time settings (object backends). */
export function settingsObjectName(agentId: string): string {
  return `${PREFIX.settings}${agentId}`;
}

/** The role an object plays, from its name; undefined for a name none of the above makes. */
export function objectRoleOf(name: string): ObjectRole | undefined {
  for (const [role, prefix] of Object.entries(PREFIX) as [ObjectRole, string][]) {
    if (name.startsWith(prefix)) return role;
  }
  return undefined;
}

/** The THREADS binding, or a CONFIG_INVALID error that says what needed it. */
export function threadsNamespace(env: Env, neededBy: string): ObjectNamespace {
  const threads = env.THREADS;
  if (threads === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `${neededBy} needs the THREADS Durable Object binding (class ThreadDO) in wrangler.toml`,
    );
  }
  return threads;
}

/**
 * The object `name` of THREADS, seen through the role interface `T` its caller declares
 * (RPC stubs expose the class's methods; ThreadDO implements every role interface).
 */
export function threadsObject<T extends object>(env: Env, name: string, neededBy: string): T {
  return threadsNamespace(env, neededBy).getByName(name) as T;
}

/**
 * Two principals sending the same contextId, through the Worker, on whichever
 * backend the calling file runs (postgres in `workers`, sqlite / in_memory in the Durable
 * Object projects). The offline model's `received=` counts everything it was sent; in
 * stable_tail mode recalled facts and the summary are sent as extra runtime-context
 * messages, so a leaked fact or summary shows up in the count.
 */
import { expect } from "vitest";
import { threadKey } from "../../src/runtime/thread-keys.ts";
import { ADMIN_TOKEN, apiKeys, bearer, instance, send } from "./auth-helpers.ts";

export interface PrincipalBackend {
  /** Store `text` as the `summary` row of the conversation `threadId` (a thread key). */
  plantSummary(threadId: string, text: string): Promise<void>;
}

export async function twoPrincipalsShareNothing(backend: PrincipalBackend): Promise<void> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const [aliceKey, bobKey] = [`alice-${suffix}`, `bob-${suffix}`];
  const worker = instance({
    A2A_AUTH: "api_key",
    A2A_API_KEYS: await apiKeys({ alice: aliceKey, bob: bobKey }),
    MEMORY_FACTS_MODE: "heuristic",
    LLAMON_PROMPT_CONTEXT_MODE: "stable_tail",
  });
  const contextId = `shared-${suffix}`;
  const alice = (text: string) => worker.rpc(send(contextId, text), bearer(aliceKey));
  const bob = (text: string) => worker.rpc(send(contextId, text), bearer(bobKey));

  // Her message and the facts recalled from it (sent as a runtime-context message).
  const a1 = await alice("My name is Alice and I live in Busan.");
  expect(a1.firstLine).toBe("offline-model: received=2 has_prior=false");
  // Bob, same contextId: no history, no recalled fact (it would be a 2nd message).
  const b1 = await bob("What is my name? Where do I live?");
  expect(b1.firstLine).toBe("offline-model: received=1 has_prior=false");
  expect(b1.replyText).not.toContain("Alice");
  // Alice still has hers: 2 stored + her question + the recalled facts.
  const a2 = await alice("What is my name? Where do I live?");
  expect(a2.firstLine).toBe("offline-model: received=4 has_prior=true");
  expect(a2.replyText).toContain("previous user message: My name is Alice");

  // A summary of Alice's conversation is sent to her model calls only.
  await backend.plantSummary(threadKey("alice", contextId), "Alice lives in Busan.");
  const b2 = await bob("Anything else?");
  expect(b2.firstLine).toBe("offline-model: received=3 has_prior=true");
  expect(b2.replyText).toContain("previous user message: What is my name?");
  // 4 stored + her question + the summary (nothing in "Anything else?" recalls a fact).
  const a3 = await alice("Anything else?");
  expect(a3.firstLine).toBe("offline-model: received=6 has_prior=true");

  // Alice's task: Bob cannot read, cancel or follow it (not found), nor name it in a send.
  const aliceTask = (a3.body.result as { id: string }).id;
  for (const method of ["tasks/get", "tasks/cancel"]) {
    const res = await worker.rpc(
      { jsonrpc: "2.0", id: 1, method, params: { id: aliceTask } },
      bearer(bobKey),
    );
    expect((res.body.error as { code: number }).code, method).toBe(-32001);
  }
  const resub = await worker.rpc(
    { jsonrpc: "2.0", id: 1, method: "tasks/resubscribe", params: { id: aliceTask } },
    bearer(bobKey),
  );
  expect(JSON.stringify(resub.body)).toContain("-32001");
  const hijack = await worker.rpc(
    {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: {
          contextId,
          taskId: aliceTask,
          role: "user",
          parts: [{ kind: "text", text: "continue" }],
        },
      },
    },
    bearer(bobKey),
  );
  expect((hijack.body.error as { code: number }).code).toBe(-32001);
  const own = await worker.rpc(
    { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: aliceTask } },
    bearer(aliceKey),
  );
  expect((own.body.result as { id: string }).id).toBe(aliceTask);
}

interface Listed {
  principal: string;
  context_id: string;
  message_count: number;
}

/** Polls `probe` until it returns a value (object backends list after the answer). */
async function eventually<T>(probe: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("not listed in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The management API shows each conversation's principal, filters by `?principal=`, and
 * reads and erases one (principal, contextId): the same contextId of another principal (and
 * of anonymous) is untouched.
 */
export async function adminAddressesOnePrincipal(): Promise<void> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const [alice, bob] = [`alice-${suffix}`, `bob-${suffix}`];
  const worker = instance({
    A2A_AUTH: "api_key",
    // A key named "anonymous" reaches the conversations of unauthenticated callers.
    A2A_API_KEYS: await apiKeys({ [alice]: alice, [bob]: bob, anonymous: `anon-${suffix}` }),
  });
  const contextId = `admin-${suffix}`;
  for (const key of [alice, bob, bob, `anon-${suffix}`]) {
    expect((await worker.rpc(send(contextId, "hello"), bearer(key))).status).toBe(200);
  }
  const api = async (method: string, path: string) => {
    const res = await worker.fetch(`https://agent.example/api/v1${path}`, {
      method,
      headers: bearer(ADMIN_TOKEN),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const listOf = async (principal: string) =>
    (await api("GET", `/memory/threads?limit=100&principal=${encodeURIComponent(principal)}`)).body
      .threads as Listed[];
  const bobs = await eventually(async () => {
    const threads = await listOf(bob);
    return threads[0]?.message_count === 4 ? threads : undefined;
  });
  expect(bobs).toEqual([expect.objectContaining({ principal: bob, context_id: contextId })]);
  await eventually(async () => ((await listOf(alice)).length === 1 ? true : undefined));
  const anonymous = await eventually(async () => {
    const found = (await listOf("anonymous")).filter((t) => t.context_id === contextId);
    return found.length === 1 ? found : undefined;
  });
  expect(anonymous[0]?.principal).toBe("anonymous");
  expect((await listOf(alice)).every((t) => t.principal === alice)).toBe(true);

  const view = await api("GET", `/memory/threads/${contextId}?principal=${bob}`);
  expect(view.status).toBe(200);
  expect(view.body).toMatchObject({ principal: bob, context_id: contextId });
  expect((view.body.messages as unknown[]).length).toBe(4);
  const erased = await api("DELETE", `/memory/threads/${contextId}?principal=${alice}`);
  expect(erased.body).toMatchObject({ principal: alice, context_id: contextId, erased: true });
  expect((await api("GET", `/memory/threads/${contextId}?principal=${alice}`)).status).toBe(404);
  expect((await api("GET", `/memory/threads/${contextId}?principal=${bob}`)).status).toBe(200);
  expect((await api("GET", `/memory/threads/${contextId}`)).status).toBe(200);
  const bad = await api("GET", `/memory/threads?principal=${encodeURIComponent("a\u0001b")}`);
  expect(bad.status).toBe(400);
}

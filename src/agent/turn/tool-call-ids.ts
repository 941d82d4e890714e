/**
 * Tool-call ids unique per call, whatever the model sends. LangGraph's ToolNode runs only the
 * calls whose id has no ToolMessage in the thread yet, so a model that reuses an id (one that
 * numbers its calls per answer, like some OpenAI-compatible servers) would have its later
 * calls skipped and the graph would loop until its recursion limit. An answer's call keeps
 * its id unless the thread already used it, an earlier call of the same answer has it, or it
 * has none; then it gets a fresh one. The id only pairs a call with its result, so nothing
 * else depends on the provider's value.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { newToolCallId } from "../../llm/common.ts";

export function uniqueToolCallIds(reply: AIMessage, thread: readonly BaseMessage[]): AIMessage {
  const calls = reply.tool_calls ?? [];
  if (calls.length === 0) return reply;
  const used = new Set<string>();
  for (const m of thread) {
    if (AIMessage.isInstance(m)) for (const c of m.tool_calls ?? []) if (c.id) used.add(c.id);
    if (ToolMessage.isInstance(m)) used.add(m.tool_call_id);
  }
  let changed = false;
  const fixed = calls.map((call) => {
    if (call.id && !used.has(call.id)) {
      used.add(call.id);
      return call;
    }
    changed = true;
    let id = newToolCallId();
    while (used.has(id)) id = newToolCallId();
    used.add(id);
    return { ...call, id };
  });
  if (!changed) return reply;
  return new AIMessage({
    content: reply.content,
    tool_calls: fixed,
    invalid_tool_calls: reply.invalid_tool_calls,
    additional_kwargs: reply.additional_kwargs,
    response_metadata: reply.response_metadata,
    ...(reply.id === undefined ? {} : { id: reply.id }),
    ...(reply.name === undefined ? {} : { name: reply.name }),
    ...(reply.usage_metadata === undefined ? {} : { usage_metadata: reply.usage_metadata }),
  });
}

/**
 * The JSON the client reads from the management API, as far as it uses it. Written here
 * because the server's types live in modules of the Worker (another type world than the
 * browser's); test/unit/admin/studio.test.ts checks that what the server sends fits these.
 */

export interface Signals {
  thread_msgs: number;
  window: number;
  sent_to_llm: number;
  has_prior: boolean;
}

export interface ConfigBody {
  agent_id: string;
  config: Record<string, unknown>;
  sources: Record<string, string>;
  propagation: { cache_ttl_seconds: number };
}

export interface ThreadSummary {
  principal: string;
  context_id: string;
  last_activity_at: string;
  message_count: number;
}

export interface ThreadList {
  threads: ThreadSummary[];
  next_cursor: string | null;
}

export interface ToolCall {
  name: string;
  args: unknown;
}

export interface MessageView {
  index: number;
  id: string | null;
  type: string;
  text: string;
  conversation: boolean;
  tool_calls?: ToolCall[];
}

export interface GroupView {
  kind: string;
  indexes: number[];
  in_window: boolean;
}

export interface Hint {
  id: string;
  ko: string;
  en: string;
}

export interface FlowView {
  name: string;
  step: string | null;
  question: string | null;
  answers: Record<string, unknown>;
  status: "not_started" | "awaiting" | "finished";
}

export interface ThreadView {
  messages: MessageView[];
  page: { from: number; older: number | null };
  groups: GroupView[];
  window: { kept_ids: (string | null)[] };
  signals: Signals;
  system_prompt: string | null;
  summary: { text: string; effective_covers: number } | null;
  facts: Record<string, unknown>[] | null;
  retired_facts: Record<string, unknown>[];
  last_turn: { at: string | null; signals: Signals } | null;
  hints: Hint[];
  flow: FlowView | null;
}

/** The older page `?before=` returns: its messages and where the next one starts. */
export interface OlderPage {
  messages: MessageView[];
  page: { older: number | null };
}

/** An error answer of the API (src/errors.ts's JSON shape), field errors on a bad PATCH. */
export interface ErrorBody {
  message?: string;
  fieldErrors?: Record<string, string[]>;
}

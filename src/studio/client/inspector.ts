/**
 * The memory panel (signals, diagnostics, the window's groups, flow, summary, facts, system
 * prompt) and the transcript of the chosen conversation, with its earlier pages on demand.
 */
import { api, currentLang, type MessageKey, msg, problem, say, state, threadPath } from "./core.ts";
import { $, clear, clip, el } from "./dom.ts";
import type { MessageView, OlderPage, Signals, ThreadView } from "./wire.ts";

const ROLE_KEYS: Record<string, MessageKey> = {
  human: "role_human",
  ai: "role_ai",
  tool: "role_tool",
};

export function roleKey(type: string): MessageKey {
  return ROLE_KEYS[type] ?? "role_system";
}

export function toolCalls(m: MessageView): string {
  return (m.tool_calls ?? []).map((c) => `${c.name}(${JSON.stringify(c.args)})`).join(", ");
}

/** One transcript entry; `badge` says whether the window sent it to the model. */
export function bubble(type: string, text: string, badge: "sent" | "cut" | null): HTMLLIElement {
  return el("li", { className: `msg ${type}${badge === "cut" ? " cut" : ""}` }, [
    el("span", { className: "who" }, [
      msg(roleKey(type)),
      badge
        ? el("span", {
            className: `badge ${badge}`,
            text: msg(badge === "cut" ? "cut_badge" : "sent_badge"),
          })
        : null,
    ]),
    text,
  ]);
}

export async function loadInspection(): Promise<void> {
  const ctx = state.contextId;
  const principal = state.principal;
  const seq = ++state.viewSeq;
  if (!ctx) return;
  const r = await api<ThreadView>("GET", threadPath(ctx, principal));
  if (seq !== state.viewSeq || ctx !== state.contextId || principal !== state.principal) return;
  if (r.status === 404) {
    state.view = null;
    $("inspection").hidden = true;
    say("inspector-status", "thread_not_found");
    return;
  }
  if (r.status !== 200) {
    $("inspection").hidden = true;
    say("inspector-status", "error", { message: problem(r) }, "error");
    return;
  }
  say("inspector-status", null);
  state.view = r.body;
  renderInspection();
}

function signalRows(node: HTMLElement, s: Signals): void {
  clear(node);
  for (const [name, value] of [
    ["thread_msgs", s.thread_msgs],
    ["window", s.window],
    ["sent_to_llm", s.sent_to_llm],
    ["has_prior", s.has_prior],
  ] as const) {
    node.appendChild(el("dt", { text: name }));
    node.appendChild(el("dd", { "data-signal": name, text: String(value) }));
  }
}

/** A fact's field as text (facts are open records). */
function field(fact: Record<string, unknown>, key: string): string {
  const value = fact[key];
  return value === undefined || value === null ? "" : String(value);
}

export function renderInspection(): void {
  const v = state.view;
  if (!v) return;
  $("inspection").hidden = false;
  const s = v.signals;
  signalRows($("signals"), s);
  $("log-line").textContent =
    `multiturn: thread_msgs=${s.thread_msgs} window=${s.window} sent_to_llm=${s.sent_to_llm} has_prior=${s.has_prior}`;
  const hints = clear($("hints"));
  const lang = currentLang();
  for (const h of v.hints)
    hints.appendChild(el("li", { "data-hint": h.id, text: h[lang] || h.en }));
  if (v.hints.length === 0)
    hints.appendChild(el("li", { className: "none", text: msg("hints_none") }));

  const last = clear($("last-turn"));
  if (v.last_turn) {
    const dl = el("dl", { className: "signals", id: "last-turn-signals" });
    signalRows(dl, v.last_turn.signals);
    last.appendChild(dl);
    if (v.last_turn.at) last.appendChild(el("p", { className: "hint", text: v.last_turn.at }));
  } else {
    last.appendChild(el("p", { className: "hint", text: msg("last_turn_none") }));
  }

  const byIndex = new Map(v.messages.map((m) => [m.index, m]));
  const body = clear($("groups").querySelector("tbody") as HTMLTableSectionElement);
  v.groups.forEach((g, i) => {
    const texts = g.indexes.map((ix) => {
      const m = byIndex.get(ix);
      return m ? `${msg(roleKey(m.type))}: ${clip(m.text || toolCalls(m), 80)}` : "";
    });
    body.appendChild(
      el("tr", { className: g.in_window ? "" : "cut", "data-in-window": String(g.in_window) }, [
        el("td", { text: String(i + 1) }),
        el("td", { text: g.kind }),
        el("td", { text: texts.join(" / ") }),
        el("td", { text: msg(g.in_window ? "sent_badge" : "cut_badge") }),
      ]),
    );
  });
  if (v.groups.length === 0) {
    body.appendChild(el("tr", {}, [el("td", { colspan: "4", text: msg("groups_empty") })]));
  }

  // Earlier pages loaded on demand stay shown while they join the newest page without a gap.
  const lastOlder = state.older[state.older.length - 1];
  if (!lastOlder || lastOlder.index + 1 !== v.page.from) {
    state.older = [];
    state.olderCursor = v.page.older;
  }
  renderTranscript(true);

  // A flow's position (defineFlow), from its checkpointed state; nothing for other agents.
  const flow = clear($("flow"));
  if (v.flow) {
    flow.appendChild(el("h3", { text: msg("flow_heading", { name: v.flow.name }) }));
    const where =
      v.flow.status === "awaiting"
        ? msg("flow_awaiting", { step: v.flow.step ?? "", question: v.flow.question ?? "" })
        : msg(v.flow.status === "finished" ? "flow_finished" : "flow_not_started");
    flow.appendChild(el("p", { text: where }));
    flow.appendChild(el("pre", { text: JSON.stringify(v.flow.answers, null, 2) }));
  }

  const summary = clear($("summary"));
  if (v.summary) {
    summary.appendChild(
      el("p", {
        className: "hint",
        text: msg("summary_covers", { n: v.summary.effective_covers }),
      }),
    );
    summary.appendChild(el("pre", { text: v.summary.text }));
  } else summary.appendChild(el("p", { className: "hint", text: msg("summary_none") }));

  const facts = clear($("facts"));
  if (v.facts?.length) {
    const items = v.facts.map((f) => {
      const since = field(f, "since");
      const text = field(f, "text");
      return el("li", { text: since ? `${text} (${msg("facts_since", { date: since })})` : text });
    });
    facts.appendChild(el("ul", {}, items));
  } else facts.appendChild(el("p", { className: "hint", text: msg("facts_none") }));
  // Retired facts: replaced or taken back, kept for inspection, never sent as current.
  if (v.retired_facts?.length) {
    const items = v.retired_facts.map((f) =>
      el("li", {
        text: msg("facts_retired", { text: field(f, "text"), date: field(f, "retiredAt") }),
      }),
    );
    facts.appendChild(el("ul", { className: "hint" }, items));
  }
  $("system-prompt").textContent = v.system_prompt || msg("system_none");
}

export function renderTranscript(toEnd: boolean): void {
  const v = state.view;
  if (!v) return;
  const kept = new Set(v.window.kept_ids);
  const transcript = $("transcript");
  // Kept in view when earlier messages are put above it: the distance from the bottom.
  const fromBottom = transcript.scrollHeight - transcript.scrollTop;
  clear(transcript);
  for (const m of [...state.older, ...v.messages]) {
    if (!m.conversation) continue;
    transcript.appendChild(bubble(m.type, m.text || toolCalls(m), kept.has(m.id) ? "sent" : "cut"));
  }
  $("load-older").hidden = state.olderCursor === null || state.olderCursor === undefined;
  transcript.scrollTop = toEnd ? transcript.scrollHeight : transcript.scrollHeight - fromBottom;
}

// Older messages are read a page at a time (the API returns the newest page by default).
export async function loadOlder(): Promise<void> {
  const ctx = state.contextId;
  const principal = state.principal;
  const before = state.olderCursor;
  if (!ctx || before === null || before === undefined) return;
  const r = await api<OlderPage>(
    "GET",
    `${threadPath(ctx, principal)}&before=${encodeURIComponent(before)}`,
  );
  if (ctx !== state.contextId || principal !== state.principal) return;
  if (r.status !== 200) {
    say("inspector-status", "error", { message: problem(r) }, "error");
    return;
  }
  state.older = [...r.body.messages, ...state.older];
  state.olderCursor = r.body.page.older;
  renderTranscript(false);
}

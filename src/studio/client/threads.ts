/** The conversation list and choosing (or starting) the conversation the chat is about. */
import { api, msg, problem, say, state } from "./core.ts";
import { $, clear, el } from "./dom.ts";
import { loadInspection } from "./inspector.ts";
import type { ThreadList } from "./wire.ts";

export async function loadThreads(reset: boolean): Promise<void> {
  const seq = ++state.threadsSeq;
  const list = $("thread-list");
  if (reset) {
    state.cursor = null;
    clear(list);
  }
  const q = `?limit=20${state.cursor ? `&cursor=${encodeURIComponent(state.cursor)}` : ""}`;
  const r = await api<ThreadList>("GET", `/api/v1/memory/threads${q}`);
  if (seq !== state.threadsSeq) return; // a newer load replaced this one
  if (r.status !== 200) {
    if (r.status !== 401 && r.status !== 403) {
      say("threads-status", "threads_unavailable", { message: problem(r) });
    }
    $("more").hidden = true;
    return;
  }
  for (const t of r.body.threads) {
    const principal = t.principal || "anonymous";
    const current = t.context_id === state.contextId && principal === state.principal;
    const activity = `${msg("activity")} ${t.last_activity_at.replace("T", " ").slice(0, 19)} · ${msg("messages_count", { n: t.message_count })}`;
    const button = el(
      "button",
      {
        type: "button",
        "data-context": t.context_id,
        "data-principal": principal,
        "aria-current": current ? "true" : null,
      },
      [
        el("span", { text: t.context_id }),
        principal !== "anonymous"
          ? el("span", { className: "meta", text: msg("principal_meta", { principal }) })
          : null,
        el("span", { className: "meta", text: activity }),
      ],
    );
    button.addEventListener("click", () => {
      void selectContext(t.context_id, principal);
    });
    list.appendChild(el("li", {}, [button]));
  }
  say("threads-status", list.children.length === 0 ? "threads_empty" : null);
  state.cursor = r.body.next_cursor;
  $("more").hidden = !state.cursor;
}

function markCurrent(): void {
  for (const b of $("thread-list").querySelectorAll("button")) {
    const current =
      b.getAttribute("data-context") === state.contextId &&
      b.getAttribute("data-principal") === state.principal;
    if (current) b.setAttribute("aria-current", "true");
    else b.removeAttribute("aria-current");
  }
}

export function chatContextLine(): string {
  return msg("chat_for", { ctx: state.contextId, principal: state.principal });
}

export function selectContext(id: string, principal?: string): Promise<void> {
  state.contextId = id;
  state.principal = principal || "anonymous";
  state.view = null;
  state.older = [];
  state.olderCursor = null;
  $("context-id", HTMLInputElement).value = id;
  $("principal", HTMLInputElement).value = state.principal;
  const line = $("chat-context");
  line.textContent = chatContextLine();
  line.removeAttribute("data-i18n");
  $("message", HTMLTextAreaElement).disabled = false;
  $("send", HTMLButtonElement).disabled = false;
  $("delete-thread").hidden = false;
  clear($("transcript"));
  markCurrent();
  return loadInspection();
}

export async function newConversation(): Promise<void> {
  const id = `studio-${typeof crypto.randomUUID === "function" ? crypto.randomUUID() : String(Date.now())}`;
  await selectContext(id);
  $("message").focus();
}

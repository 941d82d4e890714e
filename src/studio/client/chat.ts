/** Sending a message over A2A (`message/send` to `POST /`) and erasing the conversation. */
import { api, msg, problem, say, state, threadPath } from "./core.ts";
import { $, clear, clip, el } from "./dom.ts";
import { bubble, loadInspection } from "./inspector.ts";
import { loadThreads } from "./threads.ts";

interface Part {
  text?: string;
}

interface SendAnswer {
  result?: { status?: { message?: { parts?: Part[] } }; parts?: Part[] };
  error?: { code?: number; message?: string };
}

function replyText(json: SendAnswer): string {
  const result = json.result;
  const parts = result?.status?.message?.parts ?? result?.parts ?? [];
  return parts.map((p) => p.text || "").join("");
}

export async function send(): Promise<void> {
  const message = $("message", HTMLTextAreaElement);
  const button = $("send", HTMLButtonElement);
  const text = message.value.trim();
  if (!text || !state.contextId || state.sending) return;
  state.sending = true;
  button.disabled = true;
  button.textContent = msg("sending");
  const transcript = $("transcript");
  transcript.appendChild(bubble("human", text, null));
  const body = {
    jsonrpc: "2.0",
    method: "message/send",
    params: {
      message: { contextId: state.contextId, role: "user", parts: [{ kind: "text", text }] },
    },
  };
  // A2A credentials are the agent's callers' own, never the admin token.
  const headers: Record<string, string> = { "content-type": "application/json" };
  const a2aToken = $("a2a-token", HTMLInputElement).value.trim();
  if (a2aToken) headers.authorization = `Bearer ${a2aToken}`;
  try {
    const res = await fetch("/", { method: "POST", headers, body: JSON.stringify(body) });
    const json = (await res.json()) as SendAnswer;
    if (json.error) throw new Error(json.error.message || `JSON-RPC error ${json.error.code}`);
    message.value = "";
    const reply = replyText(json);
    transcript.appendChild(bubble("ai", reply, null));
    $("chat-status").textContent = `${msg("role_ai")}: ${clip(reply, 300)}`;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    transcript.appendChild(
      el("li", { className: "msg status error", text: msg("reply_failed", { message: why }) }),
    );
  }
  // The next message can go as soon as this one is answered; the panels refresh behind it
  // (the newest refresh wins), so a message typed meanwhile is never dropped.
  state.sending = false;
  button.disabled = false;
  button.textContent = msg("send");
  message.focus();
  void loadInspection();
  void loadThreads(true);
}

export async function deleteThread(): Promise<void> {
  const ctx = state.contextId;
  if (!ctx || !window.confirm(msg("delete_confirm", { ctx }))) return;
  const r = await api<unknown>("DELETE", threadPath(ctx, state.principal));
  if (r.status !== 200) {
    say("inspector-status", "error", { message: problem(r) }, "error");
    return;
  }
  say("inspector-status", "deleted", { ctx }, "ok");
  clear($("transcript"));
  $("inspection").hidden = true;
  void loadThreads(true);
}

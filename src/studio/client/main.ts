/**
 * Studio's browser script (served as /studio/studio.js, bundled at build time by
 * scripts/build-studio.mts): connecting with the admin token, the language switch, and the
 * wiring of every control. Every text it shows goes in through textContent (dom.ts).
 */

import { deleteThread, send } from "./chat.ts";
import { renderConfig, saveConfig } from "./config-form.ts";
import {
  api,
  currentLang,
  data,
  isMessageKey,
  keepToken,
  loadToken,
  msg,
  problem,
  resay,
  say,
  state,
  switchLang,
} from "./core.ts";
import { $, setStatus } from "./dom.ts";
import { loadInspection, loadOlder, renderInspection } from "./inspector.ts";
import { copyCommand, updateCommand } from "./project-form.ts";
import { chatContextLine, loadThreads, newConversation, selectContext } from "./threads.ts";
import type { ConfigBody } from "./wire.ts";

async function connect(): Promise<void> {
  setStatus($("status"), "…");
  const r = await api<ConfigBody>("GET", "/api/v1/memory/config");
  if (r.status !== 200) {
    if (r.status !== 401 && r.status !== 403) {
      say("status", "error", { message: problem(r) }, "error");
    }
    return;
  }
  keepToken(state.token);
  state.config = r.body;
  say("status", "connected", { agent: r.body.agent_id }, "ok");
  $("workspace").hidden = false;
  $("config").hidden = false;
  renderConfig();
  void loadThreads(true);
  if (state.contextId) void loadInspection();
}

function forget(): void {
  keepToken(null);
  state.token = "";
  const token = $("token", HTMLInputElement);
  token.value = "";
  $("workspace").hidden = true;
  $("config").hidden = true;
  say("status", null);
  token.focus();
}

function applyLang(): void {
  const lang = currentLang();
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll<HTMLElement>("[data-i18n]")) {
    const key = node.getAttribute("data-i18n");
    if (isMessageKey(key)) node.textContent = msg(key);
  }
  const toggle = $("lang-toggle");
  toggle.setAttribute("aria-label", msg("lang_toggle_label"));
  toggle.setAttribute("lang", lang === "ko" ? "en" : "ko");
  if (state.contextId) $("chat-context").textContent = chatContextLine();
  resay();
  renderConfig();
  renderInspection();
  updateCommand();
  if (!$("workspace").hidden) void loadThreads(true);
}

/** A form whose submit is handled here, never sent by the browser. */
function onSubmit(id: string, handle: () => void): void {
  $(id, HTMLFormElement).addEventListener("submit", (e) => {
    e.preventDefault();
    handle();
  });
}

onSubmit("token-form", () => {
  state.token = $("token", HTMLInputElement).value.trim();
  if (state.token) void connect();
});
$("forget").addEventListener("click", forget);
onSubmit("open-form", () => {
  const id = $("context-id", HTMLInputElement).value.trim();
  if (id) void selectContext(id, $("principal", HTMLInputElement).value.trim());
});
$("new-conversation").addEventListener("click", () => {
  void newConversation();
});
$("refresh").addEventListener("click", () => {
  void loadThreads(true);
  void loadInspection();
});
$("more").addEventListener("click", () => {
  void loadThreads(false);
});
$("load-older").addEventListener("click", () => {
  void loadOlder();
});
onSubmit("send-form", () => {
  void send();
});
$("message").addEventListener("keydown", (e) => {
  // Enter while an input method composes (Hangul) picks the syllable; it never sends.
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
    e.preventDefault();
    void send();
  }
});
$("delete-thread").addEventListener("click", () => {
  void deleteThread();
});
onSubmit("config-form", () => {
  void saveConfig();
});
$("project-form").addEventListener("input", updateCommand);
onSubmit("project-form", () => {});
$("copy-command").addEventListener("click", copyCommand);
$("lang-toggle").addEventListener("click", () => {
  switchLang();
  applyLang();
});

if (currentLang() !== data.lang) applyLang();
else updateCommand();
state.token = loadToken();
if (state.token) {
  $("token", HTMLInputElement).value = state.token;
  void connect();
} else $("token").focus();

/**
 * Studio's one page, rendered on the server: static markup with every label in the chosen
 * language (data-i18n marks what the language switch retranslates), plus a JSON block with
 * the labels of both languages and the config form's fields. The behaviour is the plain
 * script served at /studio/studio.js (no build step, no CDN).
 */
import { STUDIO_FIELDS } from "./fields.ts";
import { STUDIO_MESSAGES, type StudioLang, type StudioMessages } from "./i18n.ts";

/** Mirrors src/cli/scaffold/names.ts (a unit test keeps them in step). */
export const PROJECT_NAME_RULE = {
  pattern: "^[a-z](?:[a-z0-9]|-(?=[a-z0-9]))*$",
  maxLength: 56,
  reserved: ["llamon", "node", "wrangler", "vitest", "typescript", "zod", "test", "node_modules"],
};

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** JSON safe inside a <script type="application/json"> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026");
}

export interface StudioPageInput {
  lang: StudioLang;
  agentName: string;
}

export function renderStudioPage(input: StudioPageInput): string {
  const m: StudioMessages = STUDIO_MESSAGES[input.lang];
  const t = (key: keyof StudioMessages) => `data-i18n="${key}">${escapeHtml(m[key])}`;
  const data = {
    lang: input.lang,
    messages: STUDIO_MESSAGES,
    fields: STUDIO_FIELDS,
    projectName: PROJECT_NAME_RULE,
  };
  return `<!doctype html>
<html lang="${input.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>llamon Studio</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/studio/studio.css">
</head>
<body>
<a class="skip" href="#main" ${t("skip")}</a>
<header>
  <h1>llamon Studio</h1>
  <span class="agent"><span ${t("subtitle")}</span> · ${escapeHtml(input.agentName)}</span>
  <span class="spacer"></span>
  <button type="button" class="secondary" id="lang-toggle" lang="${input.lang === "ko" ? "en" : "ko"}" aria-label="${escapeHtml(m.lang_toggle_label)}" ${t("lang_toggle")}</button>
</header>
<main id="main" tabindex="-1">
<section id="auth" aria-labelledby="auth-h">
  <h2 id="auth-h" ${t("auth_heading")}</h2>
  <form id="token-form" class="row" autocomplete="off">
    <label for="token" ${t("token_label")}</label>
    <input id="token" name="token" type="password" required aria-describedby="token-hint" spellcheck="false">
    <button type="submit" id="connect" ${t("connect")}</button>
    <button type="button" class="secondary" id="forget" ${t("forget")}</button>
  </form>
  <p class="hint" id="token-hint" ${t("token_hint")}</p>
  <p id="status" class="status" role="status" aria-live="polite"></p>
</section>

<div class="layout" id="workspace" hidden>
<section id="threads" aria-labelledby="threads-h">
  <h2 id="threads-h" ${t("threads_heading")}</h2>
  <form id="open-form" class="row">
    <label for="context-id" ${t("context_label")}</label>
    <input id="context-id" name="contextId" type="text" spellcheck="false" maxlength="256" required>
    <label for="principal" ${t("principal_label")}</label>
    <input id="principal" name="principal" type="text" spellcheck="false" maxlength="200" value="anonymous" required>
    <button type="submit" id="open" ${t("open")}</button>
  </form>
  <div class="row">
    <button type="button" id="new-conversation" ${t("new_conversation")}</button>
    <button type="button" class="secondary" id="refresh" ${t("refresh")}</button>
  </div>
  <p id="threads-status" class="hint" aria-live="polite"></p>
  <ul class="threads" id="thread-list"></ul>
  <button type="button" class="secondary" id="more" hidden ${t("more")}</button>
</section>

<section id="chat" aria-labelledby="chat-h">
  <h2 id="chat-h" ${t("chat_heading")}</h2>
  <p id="chat-context" class="hint" ${t("no_context")}</p>
  <button type="button" class="secondary" id="load-older" hidden ${t("load_older")}</button>
  <ol class="transcript" id="transcript" aria-label="${escapeHtml(m.chat_heading)}"></ol>
  <p id="chat-status" class="visually-hidden" role="status" aria-live="polite"></p>
  <form id="send-form">
    <label for="message" ${t("message_label")}</label>
    <textarea id="message" name="message" aria-describedby="send-hint" disabled></textarea>
    <label for="a2a-token" ${t("a2a_token_label")}</label>
    <input id="a2a-token" name="a2aToken" type="password" spellcheck="false" autocomplete="off" aria-describedby="a2a-token-hint">
    <p class="hint" id="a2a-token-hint" ${t("a2a_token_hint")}</p>
    <div class="row">
      <button type="submit" id="send" disabled ${t("send")}</button>
      <span class="hint" id="send-hint" ${t("send_hint")}</span>
    </div>
  </form>
  <div class="row"><button type="button" class="secondary" id="delete-thread" hidden ${t("delete_thread")}</button></div>
</section>

<section id="inspector" aria-labelledby="inspector-h">
  <h2 id="inspector-h" ${t("inspector_heading")}</h2>
  <p id="inspector-status" class="hint" aria-live="polite"></p>
  <div id="inspection" hidden>
    <h3 ${t("signals_heading")}</h3>
    <dl class="signals" id="signals"></dl>
    <p class="hint"><span ${t("log_line")}</span>: <code id="log-line"></code></p>
    <h3 ${t("hints_heading")}</h3>
    <ul class="hints" id="hints"></ul>
    <h3 ${t("last_turn_heading")}</h3>
    <div id="last-turn"></div>
    <h3 ${t("groups_heading")}</h3>
    <table id="groups"><thead><tr>
      <th scope="col" ${t("col_index")}</th><th scope="col" ${t("col_kind")}</th>
      <th scope="col" ${t("col_messages")}</th><th scope="col" ${t("col_window")}</th>
    </tr></thead><tbody></tbody></table>
    <div id="flow"></div>
    <h3 ${t("summary_heading")}</h3>
    <div id="summary"></div>
    <h3 ${t("facts_heading")}</h3>
    <div id="facts"></div>
    <h3 ${t("system_heading")}</h3>
    <pre id="system-prompt"></pre>
  </div>
</section>
</div>

<section id="config" aria-labelledby="config-h" hidden>
  <h2 id="config-h" ${t("config_heading")}</h2>
  <p class="hint" ${t("config_intro")}</p>
  <form id="config-form" novalidate>
    <div class="config-grid" id="config-fields"></div>
    <div class="row"><button type="submit" id="config-save" ${t("config_save")}</button></div>
    <p id="config-status" class="status" role="status" aria-live="polite"></p>
  </form>
</section>

<section id="project" aria-labelledby="project-h">
  <h2 id="project-h" ${t("project_heading")}</h2>
  <form id="project-form">
    <div class="row">
      <label for="project-name" ${t("project_name")}</label>
      <input id="project-name" name="name" type="text" value="my-agent" spellcheck="false" aria-describedby="project-name-hint project-name-error" maxlength="56">
    </div>
    <p class="hint" id="project-name-hint" ${t("project_name_hint")}</p>
    <p class="status error" id="project-name-error" aria-live="polite"></p>
    <fieldset>
      <legend ${t("project_memory")}</legend>
      <div><input type="radio" name="memory" id="memory-postgres" value="postgres" checked> <label for="memory-postgres" ${t("memory_postgres")}</label></div>
      <div><input type="radio" name="memory" id="memory-in-memory" value="in-memory"> <label for="memory-in-memory" ${t("memory_in_memory")}</label></div>
      <div><input type="radio" name="memory" id="memory-off" value="off"> <label for="memory-off" ${t("memory_off")}</label></div>
    </fieldset>
    <h3 id="project-command-h" ${t("project_command")}</h3>
    <output class="command" id="project-command" for="project-name memory-postgres memory-in-memory memory-off" aria-labelledby="project-command-h"></output>
    <div class="row"><button type="button" class="secondary" id="copy-command" ${t("copy")}</button><span id="copy-status" class="hint" aria-live="polite"></span></div>
  </form>
</section>
</main>
<script type="application/json" id="studio-data">${scriptJson(data)}</script>
<script src="/studio/studio.js" defer></script>
</body>
</html>`;
}

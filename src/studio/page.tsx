/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * Studio's one page, rendered on the server with hono/jsx (which escapes every text and
 * attribute): static markup with every label in the chosen language (data-i18n marks what
 * the language switch retranslates), plus a JSON block with the labels of both languages
 * and the config form's fields. The behaviour is the script served at /studio/studio.js,
 * bundled from ./client/ at build time. The pragmas above keep the JSX settings with the
 * file, for bundlers that compile it from a project's node_modules.
 */
import type { JSX } from "hono/jsx/jsx-runtime";
import { type ProjectNameRule, STUDIO_DATA_ID, type StudioData } from "./data.ts";
import { STUDIO_FIELDS } from "./fields.ts";
import { STUDIO_MESSAGES, type StudioLang, type StudioMessages } from "./i18n.ts";

/** Mirrors src/cli/scaffold/names.ts (a unit test keeps them in step). */
export const PROJECT_NAME_RULE: ProjectNameRule = {
  pattern: "^[a-z](?:[a-z0-9]|-(?=[a-z0-9]))*$",
  maxLength: 56,
  reserved: ["llamon", "node", "wrangler", "vitest", "typescript", "zod", "test", "node_modules"],
};

/**
 * JSON safe as the raw text of a <script> element: no `<`, `>` or `&` that could end the
 * element or open a comment (the browser does not decode entities there, so JSX escaping
 * would break the JSON instead).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026");
}

export interface StudioPageInput {
  lang: StudioLang;
  agentName: string;
}

/** A whole document as a string: the doctype, then the element (every part renders at once). */
function renderDocument(element: JSX.Element): string {
  const html: unknown = element.toString();
  if (typeof html !== "string") throw new Error("a Studio page rendered asynchronously");
  return `<!doctype html>\n${html}`;
}

function StudioPage({ lang, agentName }: StudioPageInput) {
  const m: StudioMessages = STUDIO_MESSAGES[lang];
  /** A translatable label: the element's text, and the key the language switch looks up. */
  const t = (key: keyof StudioMessages) => ({ "data-i18n": key, children: m[key] });
  const data: StudioData = {
    lang,
    messages: STUDIO_MESSAGES,
    fields: STUDIO_FIELDS,
    projectName: PROJECT_NAME_RULE,
  };
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>llamon Studio</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/studio/studio.css" />
      </head>
      <body>
        <a class="skip" href="#main" {...t("skip")} />
        <header>
          <h1>llamon Studio</h1>
          <span class="agent">
            <span {...t("subtitle")} /> · {agentName}
          </span>
          <span class="spacer" />
          <button
            type="button"
            class="secondary"
            id="lang-toggle"
            lang={lang === "ko" ? "en" : "ko"}
            aria-label={m.lang_toggle_label}
            {...t("lang_toggle")}
          />
        </header>
        <main id="main" tabindex={-1}>
          <Auth t={t} />
          <div class="layout" id="workspace" hidden>
            <Threads t={t} />
            <Chat t={t} chatHeading={m.chat_heading} />
            <Inspector t={t} />
          </div>
          <Config t={t} />
          <Project t={t} />
        </main>
        <script
          type="application/json"
          id={STUDIO_DATA_ID}
          dangerouslySetInnerHTML={{ __html: scriptJson(data) }}
        />
        <script src="/studio/studio.js" defer />
      </body>
    </html>
  );
}

/** A label's text and the key the language switch retranslates it by. */
interface Translated {
  "data-i18n": string;
  children: string;
}
type Label = (key: keyof StudioMessages) => Translated;

function FormLabel({ control, label }: { control: string; label: Translated }) {
  return (
    <label for={control} data-i18n={label["data-i18n"]}>
      {label.children}
    </label>
  );
}

function Auth({ t }: { t: Label }) {
  return (
    <section id="auth" aria-labelledby="auth-h">
      <h2 id="auth-h" {...t("auth_heading")} />
      <form id="token-form" class="row" autocomplete="off">
        <FormLabel control={"token"} label={t("token_label")} />
        <input
          id="token"
          name="token"
          type="password"
          required
          aria-describedby="token-hint"
          spellcheck={false}
        />
        <button type="submit" id="connect" {...t("connect")} />
        <button type="button" class="secondary" id="forget" {...t("forget")} />
      </form>
      <p class="hint" id="token-hint" {...t("token_hint")} />
      <p id="status" class="status" role="status" aria-live="polite" />
    </section>
  );
}

function Threads({ t }: { t: Label }) {
  return (
    <section id="threads" aria-labelledby="threads-h">
      <h2 id="threads-h" {...t("threads_heading")} />
      <form id="open-form" class="row">
        <FormLabel control={"context-id"} label={t("context_label")} />
        <input
          id="context-id"
          name="contextId"
          type="text"
          spellcheck={false}
          maxlength={256}
          required
        />
        <FormLabel control={"principal"} label={t("principal_label")} />
        <input
          id="principal"
          name="principal"
          type="text"
          spellcheck={false}
          maxlength={200}
          value="anonymous"
          required
        />
        <button type="submit" id="open" {...t("open")} />
      </form>
      <div class="row">
        <button type="button" id="new-conversation" {...t("new_conversation")} />
        <button type="button" class="secondary" id="refresh" {...t("refresh")} />
      </div>
      <p id="threads-status" class="hint" aria-live="polite" />
      <ul class="threads" id="thread-list" />
      <button type="button" class="secondary" id="more" hidden {...t("more")} />
    </section>
  );
}

function Chat({ t, chatHeading }: { t: Label; chatHeading: string }) {
  return (
    <section id="chat" aria-labelledby="chat-h">
      <h2 id="chat-h" {...t("chat_heading")} />
      <p id="chat-context" class="hint" {...t("no_context")} />
      <button type="button" class="secondary" id="load-older" hidden {...t("load_older")} />
      <ol class="transcript" id="transcript" aria-label={chatHeading} />
      <p id="chat-status" class="visually-hidden" role="status" aria-live="polite" />
      <form id="send-form">
        <FormLabel control={"message"} label={t("message_label")} />
        <textarea id="message" name="message" aria-describedby="send-hint" disabled />
        <FormLabel control={"a2a-token"} label={t("a2a_token_label")} />
        <input
          id="a2a-token"
          name="a2aToken"
          type="password"
          spellcheck={false}
          autocomplete="off"
          aria-describedby="a2a-token-hint"
        />
        <p class="hint" id="a2a-token-hint" {...t("a2a_token_hint")} />
        <div class="row">
          <button type="submit" id="send" disabled {...t("send")} />
          <span class="hint" id="send-hint" {...t("send_hint")} />
        </div>
      </form>
      <div class="row">
        <button type="button" class="secondary" id="delete-thread" hidden {...t("delete_thread")} />
      </div>
    </section>
  );
}

function Inspector({ t }: { t: Label }) {
  return (
    <section id="inspector" aria-labelledby="inspector-h">
      <h2 id="inspector-h" {...t("inspector_heading")} />
      <p id="inspector-status" class="hint" aria-live="polite" />
      <div id="inspection" hidden>
        <h3 {...t("signals_heading")} />
        <dl class="signals" id="signals" />
        <p class="hint">
          <span {...t("log_line")} />: <code id="log-line" />
        </p>
        <h3 {...t("hints_heading")} />
        <ul class="hints" id="hints" />
        <h3 {...t("last_turn_heading")} />
        <div id="last-turn" />
        <h3 {...t("groups_heading")} />
        <table id="groups">
          <thead>
            <tr>
              <th scope="col" {...t("col_index")} />
              <th scope="col" {...t("col_kind")} />
              <th scope="col" {...t("col_messages")} />
              <th scope="col" {...t("col_window")} />
            </tr>
          </thead>
          <tbody />
        </table>
        <div id="flow" />
        <h3 {...t("summary_heading")} />
        <div id="summary" />
        <h3 {...t("facts_heading")} />
        <div id="facts" />
        <h3 {...t("system_heading")} />
        <pre id="system-prompt" />
      </div>
    </section>
  );
}

function Config({ t }: { t: Label }) {
  return (
    <section id="config" aria-labelledby="config-h" hidden>
      <h2 id="config-h" {...t("config_heading")} />
      <p class="hint" {...t("config_intro")} />
      <form id="config-form" novalidate>
        <div class="config-grid" id="config-fields" />
        <div class="row">
          <button type="submit" id="config-save" {...t("config_save")} />
        </div>
        <p id="config-status" class="status" role="status" aria-live="polite" />
      </form>
    </section>
  );
}

const MEMORY_MODES = [
  { value: "postgres", label: "memory_postgres" },
  { value: "in-memory", label: "memory_in_memory" },
  { value: "off", label: "memory_off" },
] as const;

function Project({ t }: { t: Label }) {
  return (
    <section id="project" aria-labelledby="project-h">
      <h2 id="project-h" {...t("project_heading")} />
      <form id="project-form">
        <div class="row">
          <FormLabel control={"project-name"} label={t("project_name")} />
          <input
            id="project-name"
            name="name"
            type="text"
            value="my-agent"
            spellcheck={false}
            aria-describedby="project-name-hint project-name-error"
            maxlength={56}
          />
        </div>
        <p class="hint" id="project-name-hint" {...t("project_name_hint")} />
        <p class="status error" id="project-name-error" aria-live="polite" />
        <fieldset>
          <legend {...t("project_memory")} />
          {MEMORY_MODES.map(({ value, label }) => (
            <div>
              <input
                type="radio"
                name="memory"
                id={`memory-${value}`}
                value={value}
                checked={value === "postgres"}
              />{" "}
              <FormLabel control={`memory-${value}`} label={t(label)} />
            </div>
          ))}
        </fieldset>
        <h3 id="project-command-h" {...t("project_command")} />
        <output
          class="command"
          id="project-command"
          for="project-name memory-postgres memory-in-memory memory-off"
          aria-labelledby="project-command-h"
        />
        <div class="row">
          <button type="button" class="secondary" id="copy-command" {...t("copy")} />
          <span id="copy-status" class="hint" aria-live="polite" />
        </div>
      </form>
    </section>
  );
}

export function renderStudioPage(input: StudioPageInput): string {
  return renderDocument(<StudioPage {...input} />);
}

/** The page `/studio` answers while the management API is off. */
export function renderDisabledPage(message: string): string {
  return renderDocument(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>llamon Studio — off</title>
      </head>
      <body>
        <p>llamon Studio: {message}</p>
      </body>
    </html>,
  );
}

/**
 * What every part of the client shares: the page's data block, the chosen language and its
 * labels, the session state, retranslatable status lines and the management API call.
 */
import { STUDIO_DATA_ID, type StudioData } from "../data.ts";
import type { StudioLang, StudioMessages } from "../i18n.ts";
import { $, type StatusKind, setStatus } from "./dom.ts";
import type { ConfigBody, ErrorBody, MessageView, ThreadView } from "./wire.ts";

export type MessageKey = keyof StudioMessages;

export const data = JSON.parse($(STUDIO_DATA_ID).textContent ?? "") as StudioData;

const TOKEN_KEY = "llamon.studio.token";
const LANG_KEY = "llamon.studio.lang";

function savedLang(): StudioLang | undefined {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved === "ko" || saved === "en") return saved;
  } catch {
    // storage may be off (private mode, policy): the page's language stands
  }
  return undefined;
}

let lang: StudioLang = savedLang() ?? data.lang;

export function currentLang(): StudioLang {
  return lang;
}

/** Switches the language and remembers it in this browser. */
export function switchLang(): void {
  lang = lang === "ko" ? "en" : "ko";
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // not remembered; the switch still applies
  }
}

export interface State {
  token: string;
  contextId: string;
  principal: string;
  config: ConfigBody | null;
  /** The thread list's next page. */
  cursor: string | null;
  view: ThreadView | null;
  /** Earlier messages loaded on demand, shown above the view's page. */
  older: MessageView[];
  olderCursor: number | null;
  sending: boolean;
  /** Sequence numbers: an answer to anything but the newest load is dropped. */
  threadsSeq: number;
  viewSeq: number;
}

export const state: State = {
  token: "",
  contextId: "",
  principal: "anonymous",
  config: null,
  cursor: null,
  view: null,
  older: [],
  olderCursor: null,
  sending: false,
  threadsSeq: 0,
  viewSeq: 0,
};

export function loadToken(): string {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? "";
  } catch {
    return "";
  }
}

export function keepToken(token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // kept for this page only
  }
}

export function isMessageKey(key: string | null): key is MessageKey {
  return key !== null && Object.hasOwn(data.messages[lang], key);
}

/** The label in the current language, `{name}` placeholders filled in. */
export function msg(key: MessageKey, vars?: Record<string, string | number>): string {
  let text = data.messages[lang][key] || key;
  for (const [k, v] of Object.entries(vars ?? {})) text = text.split(`{${k}}`).join(String(v));
  return text;
}

// Status lines are kept as (label key, values) so the language switch can retranslate them.
interface Said {
  key: MessageKey;
  vars: Record<string, string | number> | undefined;
  kind: StatusKind | undefined;
  extra: string | undefined;
}
const statuses = new Map<string, Said>();

export function say(
  id: string,
  key: MessageKey | null,
  vars?: Record<string, string | number>,
  kind?: StatusKind,
  extra?: string,
): void {
  if (key === null) {
    statuses.delete(id);
    setStatus($(id), "");
    return;
  }
  statuses.set(id, { key, vars, kind, extra });
  setStatus($(id), msg(key, vars) + (extra ? ` ${extra}` : ""), kind);
}

export function resay(): void {
  for (const [id, s] of statuses) say(id, s.key, s.vars, s.kind, s.extra);
}

/** An API answer: its status and JSON body (0 when the request did not get through). */
export interface Answer<T> {
  status: number;
  body: T & ErrorBody;
}

/** The error's text for an "error" status line. */
export function problem(answer: Answer<unknown>): string | number {
  return answer.body.message || answer.status;
}

/** Calls the management API with the admin token; 401/403 lock the workspace. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${state.token}` };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (error) {
    return {
      status: 0,
      body: { message: error instanceof Error ? error.message : String(error) } as T & ErrorBody,
    };
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { message: text };
  }
  const answer = { status: res.status, body: (json ?? {}) as T & ErrorBody };
  if (res.status === 401 || res.status === 403) authFailed(answer);
  return answer;
}

function authFailed(answer: Answer<unknown>): void {
  if (answer.status === 401) say("status", "unauthorized", undefined, "error");
  else say("status", "disabled", undefined, "error", answer.body.message);
  $("workspace").hidden = true;
  $("config").hidden = true;
}

export function threadPath(ctx: string, principal: string): string {
  return `/api/v1/memory/threads/${encodeURIComponent(ctx)}?principal=${encodeURIComponent(principal || "anonymous")}`;
}

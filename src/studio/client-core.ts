/**
 * Studio's browser script, part 1: helpers, the token, the conversation list and the chat.
 * Plain ES2017 in a string (no build step); it never uses innerHTML with data — every text
 * goes through textContent. Joined with client-panels.ts inside one IIFE (app.ts).
 */
// biome-ignore lint/complexity/noUselessStringRaw: browser code kept verbatim (regex escapes stay as written)
export const STUDIO_JS_CORE = String.raw`
var data = JSON.parse(document.getElementById("studio-data").textContent);
var TOKEN_KEY = "llamon.studio.token";
var LANG_KEY = "llamon.studio.lang";
var lang = (function () {
  try { var saved = localStorage.getItem(LANG_KEY); if (saved === "ko" || saved === "en") return saved; } catch (e) {}
  return data.lang;
})();
var state = { token: "", contextId: "", principal: "anonymous", config: null, cursor: null, view: null, older: [], olderCursor: null, sending: false, threadsSeq: 0, viewSeq: 0 };
try { state.token = sessionStorage.getItem(TOKEN_KEY) || ""; } catch (e) {}

function $(id) { return document.getElementById(id); }
function msg(key, vars) {
  var text = (data.messages[lang] && data.messages[lang][key]) || key;
  if (vars) Object.keys(vars).forEach(function (k) { text = text.split("{" + k + "}").join(String(vars[k])); });
  return text;
}
function el(tag, attrs, children) {
  var node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) {
    var v = attrs[k];
    if (v === undefined || v === null || v === false) return;
    if (k === "text") node.textContent = String(v);
    else if (k === "className") node.className = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  });
  (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
  return node;
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
function setStatus(node, text, kind) { node.textContent = text || ""; node.className = "status" + (kind ? " " + kind : ""); }
// Status lines are kept as (label key, values) so the language switch can retranslate them.
var statuses = {};
function say(id, key, vars, kind, extra) {
  if (!key) { delete statuses[id]; setStatus($(id), ""); return; }
  statuses[id] = [key, vars, kind, extra];
  setStatus($(id), msg(key, vars) + (extra ? " " + extra : ""), kind);
}
function resay() { Object.keys(statuses).forEach(function (id) { var s = statuses[id]; say(id, s[0], s[1], s[2], s[3]); }); }
function clip(text, n) { text = String(text || ""); return text.length > n ? text.slice(0, n - 1) + "…" : text; }

function api(method, path, body) {
  var init = { method: method, headers: { authorization: "Bearer " + state.token } };
  if (body !== undefined) { init.headers["content-type"] = "application/json"; init.body = JSON.stringify(body); }
  return fetch(path, init).then(function (res) {
    return res.text().then(function (text) {
      var json = null;
      try { json = text ? JSON.parse(text) : null; } catch (e) { json = { message: text }; }
      if (res.status === 401 || res.status === 403) authFailed(res.status, json);
      return { status: res.status, body: json || {} };
    });
  }, function (error) { return { status: 0, body: { message: String(error && error.message || error) } }; });
}

function authFailed(status, body) {
  if (status === 401) say("status", "unauthorized", null, "error");
  else say("status", "disabled", null, "error", body && body.message);
  $("workspace").hidden = true;
  $("config").hidden = true;
}

function connect() {
  setStatus($("status"), "…");
  return api("GET", "/api/v1/memory/config").then(function (r) {
    if (r.status !== 200) {
      if (r.status !== 401 && r.status !== 403) say("status", "error", { message: r.body.message || r.status }, "error");
      return;
    }
    try { sessionStorage.setItem(TOKEN_KEY, state.token); } catch (e) {}
    state.config = r.body;
    say("status", "connected", { agent: r.body.agent_id }, "ok");
    $("workspace").hidden = false;
    $("config").hidden = false;
    renderConfig();
    loadThreads(true);
    if (state.contextId) loadInspection();
  });
}

function forget() {
  try { sessionStorage.removeItem(TOKEN_KEY); } catch (e) {}
  state.token = "";
  $("token").value = "";
  $("workspace").hidden = true;
  $("config").hidden = true;
  say("status", null);
  $("token").focus();
}

function loadThreads(reset) {
  var seq = ++state.threadsSeq;
  if (reset) { state.cursor = null; clear($("thread-list")); }
  var q = "?limit=20" + (state.cursor ? "&cursor=" + encodeURIComponent(state.cursor) : "");
  return api("GET", "/api/v1/memory/threads" + q).then(function (r) {
    if (seq !== state.threadsSeq) return; // a newer load replaced this one
    if (r.status !== 200) {
      if (r.status !== 401 && r.status !== 403) say("threads-status", "threads_unavailable", { message: r.body.message || r.status });
      $("more").hidden = true;
      return;
    }
    r.body.threads.forEach(function (t) {
      var principal = t.principal || "anonymous";
      var current = t.context_id === state.contextId && principal === state.principal;
      var button = el("button", { type: "button", "data-context": t.context_id, "data-principal": principal, "aria-current": current ? "true" : null }, [
        el("span", { text: t.context_id }),
        principal !== "anonymous" ? el("span", { className: "meta", text: msg("principal_meta", { principal: principal }) }) : null,
        el("span", { className: "meta", text: msg("activity") + " " + t.last_activity_at.replace("T", " ").slice(0, 19) + " · " + msg("messages_count", { n: t.message_count }) })
      ]);
      button.addEventListener("click", function () { selectContext(t.context_id, principal); });
      $("thread-list").appendChild(el("li", {}, [button]));
    });
    say("threads-status", $("thread-list").children.length === 0 ? "threads_empty" : null);
    state.cursor = r.body.next_cursor;
    $("more").hidden = !state.cursor;
  });
}

function markCurrent() {
  Array.prototype.forEach.call($("thread-list").querySelectorAll("button"), function (b) {
    if (b.getAttribute("data-context") === state.contextId && b.getAttribute("data-principal") === state.principal) b.setAttribute("aria-current", "true");
    else b.removeAttribute("aria-current");
  });
}

function selectContext(id, principal) {
  state.contextId = id;
  state.principal = principal || "anonymous";
  state.view = null;
  state.older = [];
  state.olderCursor = null;
  $("context-id").value = id;
  $("principal").value = state.principal;
  $("chat-context").textContent = msg("chat_for", { ctx: id, principal: state.principal });
  $("chat-context").removeAttribute("data-i18n");
  $("message").disabled = false;
  $("send").disabled = false;
  $("delete-thread").hidden = false;
  clear($("transcript"));
  markCurrent();
  return loadInspection();
}

function newConversation() {
  var id = "studio-" + (window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()));
  selectContext(id).then(function () { $("message").focus(); });
}

function threadPath(ctx, principal) {
  return "/api/v1/memory/threads/" + encodeURIComponent(ctx) + "?principal=" + encodeURIComponent(principal || "anonymous");
}

function replyText(json) {
  var result = json && json.result;
  var parts = result && result.status && result.status.message && result.status.message.parts;
  if (!parts && result && result.parts) parts = result.parts;
  return (parts || []).map(function (p) { return p.text || ""; }).join("");
}

function send() {
  var text = $("message").value.trim();
  if (!text || !state.contextId || state.sending) return;
  state.sending = true;
  $("send").disabled = true;
  $("send").textContent = msg("sending");
  var contextId = state.contextId;
  $("transcript").appendChild(bubble("human", text, null));
  var body = { jsonrpc: "2.0", method: "message/send", params: { message: { contextId: contextId, role: "user", parts: [{ kind: "text", text: text }] } } };
  // A2A credentials are the agent's callers' own, never the admin token.
  var headers = { "content-type": "application/json" };
  var a2aToken = $("a2a-token").value.trim();
  if (a2aToken) headers.authorization = "Bearer " + a2aToken;
  fetch("/", { method: "POST", headers: headers, body: JSON.stringify(body) })
    .then(function (res) { return res.json(); })
    .then(function (json) {
      if (json.error) throw new Error(json.error.message || "JSON-RPC error " + json.error.code);
      $("message").value = "";
      var reply = replyText(json);
      $("transcript").appendChild(bubble("ai", reply, null));
      $("chat-status").textContent = msg("role_ai") + ": " + clip(reply, 300);
    })
    .catch(function (error) {
      $("transcript").appendChild(el("li", { className: "msg status error", text: msg("reply_failed", { message: error.message || error }) }));
    })
    .then(function () {
      // The next message can go as soon as this one is answered; the panels refresh behind it
      // (the newest refresh wins), so a message typed meanwhile is never dropped.
      state.sending = false;
      $("send").disabled = false;
      $("send").textContent = msg("send");
      $("message").focus();
      loadInspection();
      loadThreads(true);
    });
}

function bubble(type, text, badge) {
  var who = { human: "role_human", ai: "role_ai", tool: "role_tool" }[type] || "role_system";
  var node = el("li", { className: "msg " + type + (badge === "cut" ? " cut" : "") }, [
    el("span", { className: "who" }, [msg(who), badge ? el("span", { className: "badge " + badge, text: msg(badge === "cut" ? "cut_badge" : "sent_badge") }) : null]),
    text
  ]);
  return node;
}

function deleteThread() {
  var ctx = state.contextId;
  if (!ctx || !window.confirm(msg("delete_confirm", { ctx: ctx }))) return;
  api("DELETE", threadPath(ctx, state.principal)).then(function (r) {
    if (r.status !== 200) { say("inspector-status", "error", { message: r.body.message || r.status }, "error"); return; }
    say("inspector-status", "deleted", { ctx: ctx }, "ok");
    clear($("transcript"));
    $("inspection").hidden = true;
    loadThreads(true);
  });
}
`;

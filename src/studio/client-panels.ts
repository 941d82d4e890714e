/**
 * Studio's browser script, part 2: the memory inspector, the config form (PATCH), the
 * new-project form, the language switch and start-up. Shares scope with client-core.ts.
 */
export const STUDIO_JS_PANELS = String.raw`
function loadInspection() {
  var ctx = state.contextId;
  var principal = state.principal;
  var seq = ++state.viewSeq;
  if (!ctx) return Promise.resolve();
  return api("GET", threadPath(ctx, principal)).then(function (r) {
    if (seq !== state.viewSeq || ctx !== state.contextId || principal !== state.principal) return;
    if (r.status === 404) { state.view = null; $("inspection").hidden = true; say("inspector-status", "thread_not_found"); return; }
    if (r.status !== 200) { $("inspection").hidden = true; say("inspector-status", "error", { message: r.body.message || r.status }, "error"); return; }
    say("inspector-status", null);
    state.view = r.body;
    renderInspection();
  });
}

function dlRows(node, entries) {
  clear(node);
  entries.forEach(function (e) { node.appendChild(el("dt", { text: e[0] })); node.appendChild(el("dd", { "data-signal": e[0], text: String(e[1]) })); });
}

function renderInspection() {
  var v = state.view;
  if (!v) return;
  $("inspection").hidden = false;
  var s = v.signals;
  dlRows($("signals"), [["thread_msgs", s.thread_msgs], ["window", s.window], ["sent_to_llm", s.sent_to_llm], ["has_prior", s.has_prior]]);
  $("log-line").textContent = "multiturn: thread_msgs=" + s.thread_msgs + " window=" + s.window + " sent_to_llm=" + s.sent_to_llm + " has_prior=" + s.has_prior;
  var hints = clear($("hints"));
  v.hints.forEach(function (h) { hints.appendChild(el("li", { "data-hint": h.id, text: h[lang] || h.en })); });
  if (v.hints.length === 0) hints.appendChild(el("li", { className: "none", text: msg("hints_none") }));

  var last = clear($("last-turn"));
  if (v.last_turn) {
    var ls = v.last_turn.signals;
    var dl = el("dl", { className: "signals", id: "last-turn-signals" });
    dlRows(dl, [["thread_msgs", ls.thread_msgs], ["window", ls.window], ["sent_to_llm", ls.sent_to_llm], ["has_prior", ls.has_prior]]);
    last.appendChild(dl);
    if (v.last_turn.at) last.appendChild(el("p", { className: "hint", text: v.last_turn.at }));
  } else {
    last.appendChild(el("p", { className: "hint", text: msg("last_turn_none") }));
  }

  var kept = {};
  v.window.kept_ids.forEach(function (id) { kept[id] = true; });
  var byIndex = {};
  v.messages.forEach(function (m) { byIndex[m.index] = m; });
  var body = clear($("groups").querySelector("tbody"));
  v.groups.forEach(function (g, i) {
    var texts = g.indexes.map(function (ix) { var m = byIndex[ix]; return m ? msg(roleKey(m.type)) + ": " + clip(m.text || toolCalls(m), 80) : ""; });
    body.appendChild(el("tr", { className: g.in_window ? "" : "cut", "data-in-window": g.in_window ? "true" : "false" }, [
      el("td", { text: String(i + 1) }), el("td", { text: g.kind }), el("td", { text: texts.join(" / ") }),
      el("td", { text: msg(g.in_window ? "sent_badge" : "cut_badge") })
    ]));
  });
  if (v.groups.length === 0) body.appendChild(el("tr", {}, [el("td", { colspan: "4", text: msg("groups_empty") })]));

  // Earlier pages loaded on demand stay shown while they join the newest page without a gap.
  var lastOlder = state.older[state.older.length - 1];
  if (!lastOlder || lastOlder.index + 1 !== v.page.from) { state.older = []; state.olderCursor = v.page.older; }
  renderTranscript(true);

  // A flow's position (defineFlow), from its checkpointed state; nothing for other agents.
  var flow = clear($("flow"));
  if (v.flow) {
    flow.appendChild(el("h3", { text: msg("flow_heading", { name: v.flow.name }) }));
    flow.appendChild(el("p", { text: v.flow.status === "awaiting"
      ? msg("flow_awaiting", { step: v.flow.step, question: v.flow.question || "" })
      : msg(v.flow.status === "finished" ? "flow_finished" : "flow_not_started") }));
    flow.appendChild(el("pre", { text: JSON.stringify(v.flow.answers, null, 2) }));
  }

  var summary = clear($("summary"));
  if (v.summary) {
    summary.appendChild(el("p", { className: "hint", text: msg("summary_covers", { n: v.summary.effective_covers }) }));
    summary.appendChild(el("pre", { text: v.summary.text }));
  } else summary.appendChild(el("p", { className: "hint", text: msg("summary_none") }));

  var facts = clear($("facts"));
  if (v.facts && v.facts.length) {
    facts.appendChild(el("ul", {}, v.facts.map(function (f) {
      return el("li", { text: f.since ? f.text + " (" + msg("facts_since", { date: f.since }) + ")" : f.text });
    })));
  } else facts.appendChild(el("p", { className: "hint", text: msg("facts_none") }));
  // Retired facts: replaced or taken back, kept for inspection, never sent as current.
  if (v.retired_facts && v.retired_facts.length) {
    facts.appendChild(el("ul", { className: "hint" }, v.retired_facts.map(function (f) {
      return el("li", { text: msg("facts_retired", { text: f.text, date: f.retiredAt }) });
    })));
  }
  $("system-prompt").textContent = v.system_prompt || msg("system_none");
}

function renderTranscript(toEnd) {
  var v = state.view;
  if (!v) return;
  var kept = {};
  v.window.kept_ids.forEach(function (id) { kept[id] = true; });
  var transcript = $("transcript");
  // Kept in view when earlier messages are put above it: the distance from the bottom.
  var fromBottom = transcript.scrollHeight - transcript.scrollTop;
  clear(transcript);
  state.older.concat(v.messages).forEach(function (m) {
    if (!m.conversation) return;
    transcript.appendChild(bubble(m.type, m.text || toolCalls(m), kept[m.id] ? "sent" : "cut"));
  });
  $("load-older").hidden = state.olderCursor === null || state.olderCursor === undefined;
  transcript.scrollTop = toEnd ? transcript.scrollHeight : transcript.scrollHeight - fromBottom;
}

// Older messages are read a page at a time (the API returns the newest page by default).
function loadOlder() {
  var ctx = state.contextId;
  var principal = state.principal;
  var before = state.olderCursor;
  if (!ctx || before === null || before === undefined) return Promise.resolve();
  return api("GET", threadPath(ctx, principal) + "&before=" + encodeURIComponent(before)).then(function (r) {
    if (ctx !== state.contextId || principal !== state.principal) return;
    if (r.status !== 200) { say("inspector-status", "error", { message: r.body.message || r.status }, "error"); return; }
    state.older = r.body.messages.concat(state.older);
    state.olderCursor = r.body.page.older;
    renderTranscript(false);
  });
}

function roleKey(type) { return { human: "role_human", ai: "role_ai", tool: "role_tool" }[type] || "role_system"; }
function toolCalls(m) { return (m.tool_calls || []).map(function (c) { return c.name + "(" + JSON.stringify(c.args) + ")"; }).join(", "); }

function fieldInput(f, value) {
  var id = "cfg-" + f.key;
  var attrs = { id: id, name: f.key, "aria-describedby": id + "-help " + id + "-error", disabled: f.deployTime ? true : null };
  var input;
  if (f.kind === "boolean") { attrs.type = "checkbox"; input = el("input", attrs); input.checked = value === true; }
  else if (f.kind === "choice") {
    input = el("select", attrs, f.choices.map(function (c) { return el("option", { value: c, text: c }); }));
    input.value = value === undefined ? "" : value;
  } else {
    attrs.type = f.kind === "int" ? "number" : "text";
    if (f.kind === "int") { attrs.min = f.min; attrs.max = f.max; attrs.step = 1; attrs.inputmode = "numeric"; }
    input = el("input", attrs);
    input.value = value === undefined || value === null ? "" : String(value);
    if (f.optional) input.placeholder = msg("unset");
  }
  return input;
}

function renderConfig() {
  var c = state.config;
  if (!c) return;
  var box = clear($("config-fields"));
  data.fields.forEach(function (f) {
    var id = "cfg-" + f.key;
    var value = c.config[f.key];
    var source = c.sources[f.key];
    var help = f.help[lang] + (f.deployTime ? " — " + msg("deploy_time") : "");
    var children = [
      el("label", { for: id, text: f.key }),
      el("div", {}, [fieldInput(f, value)]),
      el("p", { className: "source", id: id + "-source" }, [msg("source") + ": ", el("b", { "data-source": source, text: source })]),
      el("p", { className: "hint", id: id + "-help", text: help }),
      el("p", { className: "error", id: id + "-error", "aria-live": "polite" })
    ];
    if (source === "runtime") {
      var reset = el("button", { type: "button", className: "secondary", "aria-label": msg("config_reset_label", { key: f.key }), text: msg("config_reset") });
      reset.addEventListener("click", function () { resetKey(f.key); });
      children.push(reset);
    }
    box.appendChild(el("div", { className: "field", "data-key": f.key }, children));
  });
}

function collectPatch() {
  var patch = {};
  var c = state.config.config;
  data.fields.forEach(function (f) {
    if (f.deployTime) return;
    var input = $("cfg-" + f.key);
    var current = c[f.key];
    if (f.kind === "boolean") { if (input.checked !== current) patch[f.key] = input.checked; return; }
    var raw = input.value.trim();
    if (f.kind === "choice") { if (raw !== current) patch[f.key] = raw; return; }
    if (raw === "") { if (f.optional && current !== undefined && current !== null) patch[f.key] = null; else if (!f.optional) patch[f.key] = raw; return; }
    var value = f.kind === "int" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    if (value !== current) patch[f.key] = value;
  });
  return patch;
}

function showFieldErrors(fieldErrors) {
  var first = null;
  data.fields.forEach(function (f) {
    var input = $("cfg-" + f.key);
    var errors = fieldErrors[f.key];
    $("cfg-" + f.key + "-error").textContent = errors ? errors.join(" ") : "";
    if (errors) { input.setAttribute("aria-invalid", "true"); first = first || input; } else input.removeAttribute("aria-invalid");
  });
  if (first) first.focus();
}

function afterConfig(r) {
  if (r.status === 200) {
    state.config = r.body;
    renderConfig();
    say("config-status", "config_saved", { ttl: r.body.propagation.cache_ttl_seconds }, "ok");
    loadInspection();
    return;
  }
  if (r.status === 400 && r.body.fieldErrors) { say("config-status", "config_invalid", null, "error"); showFieldErrors(r.body.fieldErrors); return; }
  say("config-status", "error", { message: r.body.message || r.status }, "error");
}

function saveConfig() {
  var patch = collectPatch();
  showFieldErrors({});
  if (Object.keys(patch).length === 0) { say("config-status", "config_nothing"); return; }
  api("PATCH", "/api/v1/memory/config", patch).then(function (r) { afterConfig(r); });
}

function resetKey(key) {
  api("DELETE", "/api/v1/memory/config?key=" + encodeURIComponent(key)).then(function (r) { afterConfig(r); $("cfg-" + key).focus(); });
}

function updateCommand() {
  var name = $("project-name").value.trim();
  var checked = document.querySelector("input[name=memory]:checked");
  var memory = checked ? checked.value : "postgres";
  var rule = data.projectName;
  var ok = new RegExp(rule.pattern).test(name) && name.length <= rule.maxLength && rule.reserved.indexOf(name) < 0;
  $("project-name").setAttribute("aria-invalid", ok ? "false" : "true");
  $("project-name-error").textContent = ok ? "" : msg("project_name_invalid");
  $("project-command").textContent = ok ? "npx llamon agent " + name + " --template agent-general --memory " + memory + " --yes" : "";
  $("copy-command").disabled = !ok;
}

function copyCommand() {
  var text = $("project-command").textContent;
  var done = function () { $("copy-status").textContent = msg("copied"); };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () {});
}

function applyLang() {
  document.documentElement.lang = lang;
  Array.prototype.forEach.call(document.querySelectorAll("[data-i18n]"), function (node) { node.textContent = msg(node.getAttribute("data-i18n")); });
  var toggle = $("lang-toggle");
  toggle.setAttribute("aria-label", msg("lang_toggle_label"));
  toggle.setAttribute("lang", lang === "ko" ? "en" : "ko");
  if (state.contextId) $("chat-context").textContent = msg("chat_for", { ctx: state.contextId, principal: state.principal });
  resay();
  renderConfig();
  renderInspection();
  updateCommand();
  if (!$("workspace").hidden) loadThreads(true);
}

$("token-form").addEventListener("submit", function (e) { e.preventDefault(); state.token = $("token").value.trim(); if (state.token) connect(); });
$("forget").addEventListener("click", forget);
$("open-form").addEventListener("submit", function (e) { e.preventDefault(); var id = $("context-id").value.trim(); if (id) selectContext(id, $("principal").value.trim()); });
$("new-conversation").addEventListener("click", newConversation);
$("refresh").addEventListener("click", function () { loadThreads(true); loadInspection(); });
$("more").addEventListener("click", function () { loadThreads(false); });
$("load-older").addEventListener("click", loadOlder);
$("send-form").addEventListener("submit", function (e) { e.preventDefault(); send(); });
$("message").addEventListener("keydown", function (e) {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) { e.preventDefault(); send(); }
});
$("delete-thread").addEventListener("click", deleteThread);
$("config-form").addEventListener("submit", function (e) { e.preventDefault(); saveConfig(); });
$("project-form").addEventListener("input", updateCommand);
$("project-form").addEventListener("submit", function (e) { e.preventDefault(); });
$("copy-command").addEventListener("click", copyCommand);
$("lang-toggle").addEventListener("click", function () {
  lang = lang === "ko" ? "en" : "ko";
  try { localStorage.setItem(LANG_KEY, lang); } catch (e) {}
  applyLang();
});
if (lang !== data.lang) applyLang(); else updateCommand();
if (state.token) { $("token").value = state.token; connect(); } else $("token").focus();
`;

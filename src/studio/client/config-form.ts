/**
 * The memory config form: one input per key with where its value comes from; saving
 * PATCHes only the changed keys, and a refused value shows its error by its input.
 */
import type { StudioFieldData } from "../data.ts";
import { type Answer, api, currentLang, data, msg, say, state } from "./core.ts";
import { $, type Attrs, clear, el } from "./dom.ts";
import { loadInspection } from "./inspector.ts";
import type { ConfigBody } from "./wire.ts";

type FieldInput = HTMLInputElement | HTMLSelectElement;

function fieldInput(f: StudioFieldData, value: unknown): FieldInput {
  const id = `cfg-${f.key}`;
  const attrs: Attrs = {
    id,
    name: f.key,
    "aria-describedby": `${id}-help ${id}-error`,
    disabled: f.deployTime ? true : null,
  };
  if (f.kind === "boolean") {
    const input = el("input", { ...attrs, type: "checkbox" });
    input.checked = value === true;
    return input;
  }
  if (f.kind === "choice") {
    const options = (f.choices ?? []).map((c) => el("option", { value: c, text: c }));
    const select = el("select", attrs, options);
    select.value = value === undefined ? "" : String(value);
    return select;
  }
  const input = el(
    "input",
    f.kind === "int"
      ? { ...attrs, type: "number", min: f.min, max: f.max, step: 1, inputmode: "numeric" }
      : { ...attrs, type: "text" },
  );
  input.value = value === undefined || value === null ? "" : String(value);
  if (f.optional) input.placeholder = msg("unset");
  return input;
}

function inputOf(key: string): FieldInput {
  const node = $(`cfg-${key}`);
  if (node instanceof HTMLInputElement || node instanceof HTMLSelectElement) return node;
  throw new Error(`Studio: #cfg-${key} is not an input`);
}

export function renderConfig(): void {
  const c = state.config;
  if (!c) return;
  const box = clear($("config-fields"));
  const lang = currentLang();
  for (const f of data.fields) {
    const id = `cfg-${f.key}`;
    const source = c.sources[f.key] ?? "";
    const help = f.help[lang] + (f.deployTime ? ` — ${msg("deploy_time")}` : "");
    const children: Node[] = [
      el("label", { for: id, text: f.key }),
      el("div", {}, [fieldInput(f, c.config[f.key])]),
      el("p", { className: "source", id: `${id}-source` }, [
        `${msg("source")}: `,
        el("b", { "data-source": source, text: source }),
      ]),
      el("p", { className: "hint", id: `${id}-help`, text: help }),
      el("p", { className: "error", id: `${id}-error`, "aria-live": "polite" }),
    ];
    if (source === "runtime") {
      const reset = el("button", {
        type: "button",
        className: "secondary",
        "aria-label": msg("config_reset_label", { key: f.key }),
        text: msg("config_reset"),
      });
      reset.addEventListener("click", () => {
        void resetKey(f.key);
      });
      children.push(reset);
    }
    box.appendChild(el("div", { className: "field", "data-key": f.key }, children));
  }
}

/** The changed keys: an emptied optional key is null (unset), a whole number a number. */
function collectPatch(config: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const f of data.fields) {
    if (f.deployTime) continue;
    const input = inputOf(f.key);
    const current = config[f.key];
    if (f.kind === "boolean" && input instanceof HTMLInputElement) {
      if (input.checked !== current) patch[f.key] = input.checked;
      continue;
    }
    const raw = input.value.trim();
    if (f.kind === "choice") {
      if (raw !== current) patch[f.key] = raw;
      continue;
    }
    if (raw === "") {
      if (f.optional && current !== undefined && current !== null) patch[f.key] = null;
      else if (!f.optional) patch[f.key] = raw;
      continue;
    }
    const value = f.kind === "int" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    if (value !== current) patch[f.key] = value;
  }
  return patch;
}

function showFieldErrors(fieldErrors: Record<string, string[]>): void {
  let first: FieldInput | null = null;
  for (const f of data.fields) {
    const input = inputOf(f.key);
    const errors = fieldErrors[f.key];
    $(`cfg-${f.key}-error`).textContent = errors ? errors.join(" ") : "";
    if (errors) {
      input.setAttribute("aria-invalid", "true");
      first = first ?? input;
    } else input.removeAttribute("aria-invalid");
  }
  first?.focus();
}

function afterConfig(r: Answer<ConfigBody>): void {
  if (r.status === 200) {
    state.config = r.body;
    renderConfig();
    say("config-status", "config_saved", { ttl: r.body.propagation.cache_ttl_seconds }, "ok");
    void loadInspection();
    return;
  }
  if (r.status === 400 && r.body.fieldErrors) {
    say("config-status", "config_invalid", undefined, "error");
    showFieldErrors(r.body.fieldErrors);
    return;
  }
  say("config-status", "error", { message: r.body.message || r.status }, "error");
}

export async function saveConfig(): Promise<void> {
  if (!state.config) return;
  const patch = collectPatch(state.config.config);
  showFieldErrors({});
  if (Object.keys(patch).length === 0) {
    say("config-status", "config_nothing");
    return;
  }
  afterConfig(await api<ConfigBody>("PATCH", "/api/v1/memory/config", patch));
}

async function resetKey(key: string): Promise<void> {
  afterConfig(
    await api<ConfigBody>("DELETE", `/api/v1/memory/config?key=${encodeURIComponent(key)}`),
  );
  $(`cfg-${key}`).focus();
}

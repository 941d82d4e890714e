/** The new-project form: a checked name and memory mode give the scaffold command. */
import { data, msg } from "./core.ts";
import { $ } from "./dom.ts";

export function updateCommand(): void {
  const input = $("project-name", HTMLInputElement);
  const name = input.value.trim();
  const checked = document.querySelector<HTMLInputElement>("input[name=memory]:checked");
  const memory = checked ? checked.value : "postgres";
  const rule = data.projectName;
  const ok =
    new RegExp(rule.pattern).test(name) &&
    name.length <= rule.maxLength &&
    !rule.reserved.includes(name);
  input.setAttribute("aria-invalid", ok ? "false" : "true");
  $("project-name-error").textContent = ok ? "" : msg("project_name_invalid");
  $("project-command").textContent = ok
    ? `npx llamon-cli agent ${name} --template agent-general --memory ${memory} --yes`
    : "";
  $("copy-command", HTMLButtonElement).disabled = !ok;
}

export function copyCommand(): void {
  const text = $("project-command").textContent ?? "";
  // Without the clipboard API (an insecure origin), nothing is copied and nothing is claimed.
  navigator.clipboard?.writeText(text).then(
    () => {
      $("copy-status").textContent = msg("copied");
    },
    () => {},
  );
}

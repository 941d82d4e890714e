/** `llamon doctor`'s report: one line per check, the fix under each problem; or JSON. */
import type { Check, Section, Status } from "./types.ts";

export interface DoctorReport {
  readonly dir: string;
  readonly ok: boolean;
  readonly problems: number;
  readonly warnings: number;
  readonly checks: readonly Check[];
}

export function summarize(dir: string, checks: readonly Check[]): DoctorReport {
  const problems = checks.filter((c) => c.status === "problem").length;
  const warnings = checks.filter((c) => c.status === "warning").length;
  return { dir, ok: problems === 0, problems, warnings, checks };
}

const MARK: Record<Status, string> = { ok: "✓", problem: "✗", warning: "!", info: "·" };
const SECTIONS: readonly Section[] = ["config", "bindings", "secrets", "auth", "database"];

export function formatReport(report: DoctorReport): string[] {
  const lines = [`llamon doctor ${report.dir}`];
  for (const section of SECTIONS) {
    const checks = report.checks.filter((c) => c.section === section);
    if (checks.length === 0) continue;
    lines.push("", section);
    for (const c of checks) {
      lines.push(`  ${MARK[c.status]} ${c.name}: ${c.message}`);
      if (c.fix !== undefined && c.status !== "ok") {
        const [first, ...rest] = c.fix.split("\n");
        lines.push(`      fix: ${first}`, ...rest.map((l) => `           ${l}`));
      }
    }
  }
  lines.push("");
  const counts = `${report.problems} problem(s), ${report.warnings} warning(s)`;
  lines.push(
    report.ok
      ? `ready: ${counts}`
      : `not ready: ${counts} — fix each ✗ above, then run npx llamon doctor again`,
  );
  return lines;
}

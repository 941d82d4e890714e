/** The llamon command line: `npx llamon <command> --help` explains each command. */
import { Command } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { registerDevProxy } from "./commands/dev-proxy.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerRun } from "./commands/run.ts";
import { reportError } from "./output.ts";

export function buildProgram(): Command {
  const program = new Command("llamon")
    .description(
      "multi-turn memory agents on Cloudflare Workers (A2A, LangGraph.js, Postgres over Neon HTTP)",
    )
    .version(pkg.version)
    .showHelpAfterError()
    .exitOverride();
  registerRun(program);
  registerMigrate(program);
  const dev = program.command("dev").description("development tools");
  registerDevProxy(dev);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number };
    if (
      e.code === "commander.helpDisplayed" ||
      e.code === "commander.version" ||
      e.code === "commander.help"
    )
      return;
    if (typeof e.exitCode === "number" && e.code?.startsWith("commander.")) {
      process.exitCode = e.exitCode;
      return;
    }
    process.exitCode = reportError(error);
  }
}

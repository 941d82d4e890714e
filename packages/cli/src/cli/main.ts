/** The llamon command line: `npx llamon <command> --help` explains each command. */
import { Command } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { registerChat } from "./commands/chat.ts";
import { registerDevProxy } from "./commands/dev-proxy.ts";
import { registerDoctor } from "./commands/doctor.ts";
import { registerMemory } from "./commands/memory-prune.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerPrepareOffline } from "./commands/prepare-offline.ts";
import { registerRun } from "./commands/run.ts";
import { registerScaffold } from "./commands/scaffold.ts";
import { reportError } from "./output.ts";

export function buildProgram(): Command {
  const program = new Command("llamon")
    .description(
      "multi-turn memory agents on Cloudflare Workers (A2A, LangGraph.js, Postgres over Neon HTTP)",
    )
    .version(pkg.version)
    .showHelpAfterError()
    .exitOverride()
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon-cli agent my-agent --template agent-general --memory postgres --yes
  $ cd my-agent && npx llamon run .
  $ npx llamon chat http://127.0.0.1:8787
  $ npx llamon doctor            # is this project ready to deploy?

Every command has --help with examples. Docs: docs/cli.md`,
    );
  registerScaffold(program);
  registerRun(program);
  registerMigrate(program);
  registerDoctor(program);
  registerChat(program);
  registerMemory(program);
  registerPrepareOffline(program);
  const dev = program
    .command("dev")
    .description("development tools")
    .addHelpText(
      "after",
      "\nExample:\n  $ npx llamon dev proxy --dsn postgresql://postgres@localhost:5432/postgres --port 4444",
    );
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

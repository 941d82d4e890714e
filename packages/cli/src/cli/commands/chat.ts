/**
 * `llamon chat <url>`: talk to an A2A agent from the terminal with the official client
 * (`@a2a-js/sdk/client`, JSON-RPC, v1.0 or v0.3 as the agent card says). It keeps the
 * conversation's contextId and prints it, so the same conversation can be resumed later
 * with `--context-id`. Reads lines from stdin (a prompt on a terminal), or sends the
 * `--message` texts and exits.
 */
import type { Command } from "commander";
import type { ChatOptions } from "../chat-session.ts";
import { defaultPort } from "../options.ts";

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerChat(program: Command): void {
  program
    .command("chat")
    .argument(
      "[url]",
      "the agent's base URL (its card is at /.well-known/agent-card.json) or card URL; default http://127.0.0.1:$PORT (8787), where `llamon run` serves",
    )
    .description(
      "talk to an A2A agent interactively; prints the contextId to resume the conversation",
    )
    .option("--context-id <id>", "continue this conversation (the A2A contextId)")
    .option("-m, --message <text>", "send this message and exit (repeatable; no prompt)", collect)
    .option(
      "--token <key>",
      "the agent's A2A credential (API key or JWT), sent as Authorization: Bearer; default: $LLAMON_A2A_TOKEN",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon chat                      # the local agent of \`npx llamon run .\` ($PORT or 8787)
  $ npx llamon chat http://127.0.0.1:8787
  $ npx llamon chat http://127.0.0.1:8787 --context-id user-alice-session
  $ npx llamon chat http://127.0.0.1:8787 -m "my name is Mina" -m "what is my name?"
  $ LLAMON_A2A_TOKEN=<key> npx llamon chat https://my-agent.example.workers.dev

In the prompt: /new starts a new conversation, /id prints the contextId, /exit (or Ctrl-D) quits.`,
    )
    .action(async (url: string | undefined, opts: ChatOptions) => {
      // The A2A client is loaded only when chatting (CLI start-up time).
      const { chat } = await import("../chat-session.ts");
      await chat(url ?? `http://127.0.0.1:${defaultPort()}`, opts);
    });
}

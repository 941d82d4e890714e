/**
 * Small interactive prompts on node:readline: an arrow-key list (↑/↓ or j/k, a number,
 * Enter) and a line of text. They need a terminal on stdin and stdout; Ctrl-C cancels with
 * exit code 130 and no stack trace.
 */
import { emitKeypressEvents } from "node:readline";
import { createInterface } from "node:readline/promises";
import { LlamonError } from "../errors.ts";

export interface Choice<T> {
  readonly value: T;
  readonly label: string;
}

export function isInteractive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

export class PromptCancelled extends LlamonError {
  constructor() {
    super("INPUT_INVALID", "cancelled");
  }
}

interface Key {
  name?: string;
  ctrl?: boolean;
  sequence?: string;
}

/** Let the user pick one of `choices` with the arrow keys; resolves with its value. */
export function select<T>(message: string, choices: readonly Choice<T>[], initial = 0): Promise<T> {
  const input = process.stdin;
  const out = process.stdout;
  let index = Math.min(Math.max(initial, 0), choices.length - 1);
  let drawn = 0;
  const render = (final = false) => {
    if (drawn > 0) out.write(`\x1b[${drawn}A\x1b[0J`);
    if (final) {
      out.write(`? ${message} ${choices[index]?.label.split(/\s+—\s+/)[0] ?? ""}\n`);
      drawn = 0;
      return;
    }
    const lines = [`? ${message}  (↑/↓, Enter)`];
    choices.forEach((c, i) => {
      lines.push(`${i === index ? "❯" : " "} ${i + 1}) ${c.label}`);
    });
    out.write(`${lines.join("\n")}\n`);
    drawn = lines.length;
  };
  return new Promise<T>((resolve, reject) => {
    emitKeypressEvents(input);
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    input.resume();
    out.write("\x1b[?25l"); // hide the cursor while choosing
    const finish = () => {
      input.off("keypress", onKey);
      input.setRawMode(wasRaw);
      input.pause();
      out.write("\x1b[?25h");
    };
    const onKey = (_text: string | undefined, key: Key | undefined) => {
      const name = key?.name;
      if ((key?.ctrl && name === "c") || name === "escape") {
        finish();
        out.write("\n");
        reject(new PromptCancelled());
        return;
      }
      if (name === "up" || name === "k") index = (index - 1 + choices.length) % choices.length;
      else if (name === "down" || name === "j" || name === "tab")
        index = (index + 1) % choices.length;
      else if (key?.sequence && /^[1-9]$/.test(key.sequence)) {
        const n = Number(key.sequence) - 1;
        if (n < choices.length) index = n;
      } else if (name === "return" || name === "enter") {
        render(true);
        finish();
        resolve((choices[index] as Choice<T>).value);
        return;
      } else return;
      render();
    };
    input.on("keypress", onKey);
    render();
  });
}

/**
 * Ask for a line of text; an empty answer takes `initial`; `validate` returns a problem or
 * undefined. After a refused answer, `retry` may offer another default (e.g. the refused name
 * made valid), which the prompt then shows and an empty answer takes.
 */
export async function ask(
  message: string,
  initial: string,
  validate: (value: string) => string | undefined,
  retry?: (refused: string) => string | undefined,
): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const cancelled = new Promise<never>((_, reject) => {
    rl.once("SIGINT", () => reject(new PromptCancelled()));
  });
  try {
    let offered = initial;
    for (;;) {
      const answer = (
        await Promise.race([rl.question(`? ${message} (${offered}) `), cancelled])
      ).trim();
      const value = answer === "" ? offered : answer;
      const problem = validate(value);
      if (problem === undefined) return value;
      const next = retry?.(value);
      process.stdout.write(`  ${problem}${next === undefined ? "" : ` (Enter takes "${next}")`}\n`);
      if (next !== undefined) offered = next;
    }
  } finally {
    rl.close();
  }
}

/**
 * The CLI's questions, asked with @clack/prompts: a list to pick from and a line of text with
 * an answer offered. They need a terminal; callers check `isInteractive` first and otherwise
 * say which flags to pass. Ctrl-C or Escape at a question rejects with CANCELLED, which the
 * CLI reports with exit code 130. Commands ask everything before they change anything, so a
 * cancelled question has changed nothing.
 */
import type { Readable, Writable } from "node:stream";
import { LlamonError } from "llamon/errors";

/** @clack/prompts, loaded only when there is a question to ask (most commands never ask). */
const clack = () => import("@clack/prompts");

/** Where questions are read and drawn; the process's own terminal unless a test gives streams. */
export interface Terminal {
  readonly input: Readable;
  readonly output: Writable;
}

export interface Choice<T> {
  readonly value: T;
  readonly label: string;
  /** Shown next to the choice under the cursor. */
  readonly hint?: string;
}

export function isInteractive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

function processTerminal(): Terminal {
  return { input: process.stdin, output: process.stdout };
}

function cancelled(question: string): LlamonError {
  return new LlamonError("CANCELLED", `"${question}" was not answered; nothing was changed`);
}

/** Let the user pick one of `choices` (↑/↓ or j/k, Enter); resolves with its value. */
export async function choose<T>(
  message: string,
  choices: readonly Choice<T>[],
  terminal: Terminal = processTerminal(),
): Promise<T> {
  const { isCancel, select } = await clack();
  // clack's option type depends on whether T is a primitive; every Choice has a label, which
  // satisfies both forms.
  const options = choices.map((c) => ({ value: c.value, label: c.label, hint: c.hint }));
  const answer = await select<T>({
    message,
    options: options as Parameters<typeof select<T>>[0]["options"],
    ...terminal,
  });
  if (isCancel(answer)) throw cancelled(message);
  return answer;
}

/**
 * Ask for a line of text; an empty answer takes `offered`; `validate` returns a problem or
 * undefined. A refused answer that `retry` can make valid ends that question and asks again
 * with the valid form offered, so Enter takes it; any other refused answer stays in the field
 * with the problem under it, to be corrected.
 */
export async function ask(
  message: string,
  offered: string,
  validate: (value: string) => string | undefined,
  retry?: (refused: string) => string | undefined,
  terminal: Terminal = processTerminal(),
): Promise<string> {
  const { isCancel, log, text } = await clack();
  let offer = offered;
  for (;;) {
    const current = offer;
    const answer = await text({
      message,
      placeholder: current,
      defaultValue: current,
      validate: (value) => {
        const candidate = value?.trim() || current;
        const problem = validate(candidate);
        return problem !== undefined && retry?.(candidate) === undefined ? problem : undefined;
      },
      ...terminal,
    });
    if (isCancel(answer)) throw cancelled(message);
    const value = answer.trim() || current;
    const problem = validate(value);
    if (problem === undefined) return value;
    // validate above let a refused answer through only when retry has a valid form of it.
    offer = retry?.(value) ?? current;
    log.warn(`${problem} (Enter takes "${offer}")`, { output: terminal.output });
  }
}

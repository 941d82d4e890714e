/**
 * The scaffold's questions (R9.1), driven through @clack/prompts' input and output streams the
 * way a terminal would: keys in, the drawn screen out. Ctrl-C at a question is CANCELLED,
 * which the CLI reports with exit code 130.
 */
import { PassThrough, Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reportError } from "../../../packages/cli/src/cli/output.ts";
import { ask, choose, type Terminal } from "../../../packages/cli/src/cli/prompt.ts";
import {
  projectNameProblem,
  retryProjectName,
} from "../../../packages/cli/src/cli/scaffold/names.ts";
import { INTERACTIVE_MEMORY_MODES } from "../../../packages/cli/src/cli/scaffold/templates.ts";
import { isLlamonError } from "../../../src/errors.ts";
import { caught } from "../../helpers/caught.ts";

const ENTER = "\r";
const DOWN = "\x1b[B";
const CTRL_C = "\x03";

/** A terminal whose keys the test types and whose screen it reads (without colours). */
function fakeTerminal() {
  const input = new PassThrough();
  let drawn = "";
  const output = new Writable({
    write(chunk, _encoding, callback) {
      drawn += String(chunk);
      callback();
    },
  });
  const screen = () => stripVTControlCharacters(drawn);
  let typedAt = 0;
  /** Types `keys` once `text` is drawn after the keys typed before. */
  const typeWhen = async (text: string, keys: string) => {
    const deadline = Date.now() + 5_000;
    while (!screen().slice(typedAt).includes(text)) {
      if (Date.now() > deadline) throw new Error(`no "${text}" on the screen:\n${screen()}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    typedAt = screen().length;
    input.write(keys);
  };
  const terminal: Terminal = { input, output };
  return { terminal, screen, typeWhen };
}

const askName = (terminal: Terminal, offered = "my-agent") =>
  ask("Project name / 프로젝트 이름", offered, projectNameProblem, retryProjectName, terminal);

describe("the scaffold's questions", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("R9.1 the name question offers a name that Enter takes", async () => {
    const { terminal, screen, typeWhen } = fakeTerminal();
    const answer = askName(terminal, "my-agent-2");
    await typeWhen("my-agent-2", ENTER);
    expect(await answer).toBe("my-agent-2");
    expect(screen()).toContain("Project name / 프로젝트 이름");
  });

  it("R9.1 a typed name is taken as typed", async () => {
    const { terminal, typeWhen } = fakeTerminal();
    const answer = askName(terminal);
    await typeWhen("Project name", `support-bot${ENTER}`);
    expect(await answer).toBe("support-bot");
  });

  it("R9.1 a refused name is offered back made valid, and Enter takes that", async () => {
    const { terminal, screen, typeWhen } = fakeTerminal();
    const answer = askName(terminal);
    await typeWhen("Project name", `Support Bot${ENTER}`);
    await typeWhen('(Enter takes "support-bot")', ENTER);
    expect(await answer).toBe("support-bot");
    expect(screen()).toContain("use lowercase letters");
  });

  it("R9.1 a refused name with no valid form stays, with the problem, until it is corrected", async () => {
    const { terminal, screen, typeWhen } = fakeTerminal();
    const answer = askName(terminal);
    await typeWhen("Project name", `42${ENTER}`);
    await typeWhen("starting with a letter", `\x7f\x7fbot-42${ENTER}`);
    expect(await answer).toBe("bot-42");
    expect(screen()).not.toContain("Enter takes");
  });

  it("R1.2 R9.1 the memory list offers postgres, in-memory and off; ↓ and Enter pick", async () => {
    const { terminal, screen, typeWhen } = fakeTerminal();
    const choices = INTERACTIVE_MEMORY_MODES.map((m) => ({ value: m.mode, label: m.mode }));
    const answer = choose("Memory / 메모리", choices, terminal);
    await typeWhen("off", DOWN);
    await typeWhen("in-memory", ENTER);
    expect(await answer).toBe("in-memory");
    expect(screen()).toContain("postgres");
    expect(screen()).not.toContain("sqlite");
  });

  it("Ctrl-C at a question is CANCELLED, reported as cancelled with exit code 130", async () => {
    const { terminal, typeWhen } = fakeTerminal();
    const answer = caught(askName(terminal));
    await typeWhen("Project name", CTRL_C);
    const error = await answer;
    expect(isLlamonError(error, "CANCELLED")).toBe(true);
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    expect(reportError(error)).toBe(130);
    expect(written.join("")).toBe(
      'cancelled: "Project name / 프로젝트 이름" was not answered; nothing was changed\n',
    );
  });

  it("Ctrl-C in a list is CANCELLED too", async () => {
    const { terminal, typeWhen } = fakeTerminal();
    const answer = caught(
      choose("Template / 템플릿", [{ value: "a", label: "agent-general" }], terminal),
    );
    await typeWhen("agent-general", CTRL_C);
    expect(isLlamonError(await answer, "CANCELLED")).toBe(true);
  });
});

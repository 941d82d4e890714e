/**
 * An offline model (src/llm/offline.ts) whose first call waits at a gate until the test opens
 * it: a race with something the test does meanwhile (an erase) happens at an exact point.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { OfflineChatModel } from "../../src/llm/offline.ts";

export class GatedModel extends OfflineChatModel {
  private open: (() => void) | undefined;
  private readonly opened: Promise<void>;
  /** Resolves when the first call has reached the gate. */
  readonly reached: Promise<void>;
  private arrive: (() => void) | undefined;
  private gated = true;
  /** What the gated (first) call was sent. */
  firstInput: readonly BaseMessage[] = [];

  constructor() {
    super();
    this.opened = new Promise((resolve) => {
      this.open = resolve;
    });
    this.reached = new Promise((resolve) => {
      this.arrive = resolve;
    });
  }

  release(): void {
    this.open?.();
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    if (this.gated) {
      this.gated = false;
      this.firstInput = [...messages];
      this.arrive?.();
      await this.opened;
    }
    return super._generate(messages);
  }
}

/**
 * An offline model that answers a few milliseconds later (a timer, not a microtask), so that
 * whatever else runs on the conversation meanwhile — an erase — interleaves with its call.
 */
export class DelayedModel extends OfflineChatModel {
  constructor(private readonly delayMs = 3) {
    super();
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return super._generate(messages);
  }
}

/**
 * An offline model whose answers have the given contents, in order (the last one repeats):
 * a model answer scripted by a test. `held`: its first call waits at the gate like
 * {@link GatedModel}'s until `release()`.
 */
export class ScriptedModel extends GatedModel {
  private next = 0;

  constructor(
    private readonly contents: readonly string[],
    options: { held?: boolean } = {},
  ) {
    super();
    if (options.held !== true) this.release();
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const result = await super._generate(messages);
    const content = this.contents[Math.min(this.next, this.contents.length - 1)] ?? "";
    this.next += 1;
    const generation = result.generations[0];
    if (generation !== undefined) generation.message.content = content;
    return result;
  }
}

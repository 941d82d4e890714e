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

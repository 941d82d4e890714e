/**
 * Conformance scenarios of the reference agent (`LLAMON_A2A_SCENARIOS=on`; off by default;
 * `input-required`: every message that starts a task gets the input-required scenario, and
 * the message continuing it is an ordinary turn):
 * tasks that do not finish at once, so A2A clients and test suites (the a2a-tck) can exercise
 * continuation, cancel and resubscribe. A message picks a scenario by its text's first word or
 * by its messageId's prefix (the a2a-tck names its messages `tck-<scenario>-…`):
 *
 * | text / messageId prefix                   | the task                                       |
 * |-------------------------------------------|------------------------------------------------|
 * | `/input-required …`, `tck-input-required` | ends `input-required` with a question; a message naming the task continues it (then an ordinary turn) |
 * | `/working [seconds]`, `tck-working`       | stays `working` (default 30 s, at most 120), streaming a progress note each second, then completes; cancel ends it at once |
 * | `tck-artifact-text`, `-file`, `-file-url`, `-data` | completes with an artifact of that kind of part (text, raw bytes, a URL, JSON data), the a2a-tck's data model checks |
 * | `tck-message-response`                    | a blocking send is answered with a Message, no task |
 *
 * Any other message is an ordinary turn with memory. A scenario runs no model and stores
 * nothing in the conversation: it is protocol behaviour, not a conversation.
 */
import type { Part } from "@a2a-js/sdk";
import type { A2ATurnInput, A2ATurnOutput } from "../a2a/types.ts";

/** The artifacts of the a2a-tck's data model checks, by messageId prefix (longest first). */
const ARTIFACT_SCENARIOS: readonly (readonly [prefix: string, kind: ArtifactKind])[] = [
  ["tck-artifact-file-url", "file-url"],
  ["tck-artifact-file", "file"],
  ["tck-artifact-text", "text"],
  ["tck-artifact-data", "data"],
];

type ArtifactKind = "text" | "file" | "file-url" | "data";

export type Scenario =
  | { kind: "input-required" }
  | { kind: "working"; seconds: number }
  | { kind: "artifact"; artifact: ArtifactKind }
  | { kind: "message" };

const DEFAULT_WORKING_SECONDS = 30;
const MAX_WORKING_SECONDS = 120;
const PROGRESS_EVERY_MS = 1000;

export type ScenarioMode = "on" | "input-required" | "off";

export function scenarioOf(
  mode: ScenarioMode,
  input: Pick<A2ATurnInput, "text" | "messageId" | "continuesTask">,
): Scenario | undefined {
  if (mode === "off") return undefined;
  // Every new task asks first (for suites that expect tasks to stay open, like a2a-tck 0.3.x).
  if (mode === "input-required" && input.continuesTask !== true) return { kind: "input-required" };
  const text = input.text.trim();
  if (text.startsWith("/input-required") || input.messageId.startsWith("tck-input-required")) {
    return { kind: "input-required" };
  }
  const artifact = ARTIFACT_SCENARIOS.find(([prefix]) => input.messageId.startsWith(prefix));
  if (artifact !== undefined) return { kind: "artifact", artifact: artifact[1] };
  if (input.messageId.startsWith("tck-message-response")) return { kind: "message" };
  const working = /^\/working(?:\s+(\d{1,3}))?\b/.exec(text);
  if (working !== null || input.messageId.startsWith("tck-working")) {
    const asked = working?.[1] === undefined ? DEFAULT_WORKING_SECONDS : Number(working[1]);
    return { kind: "working", seconds: Math.min(Math.max(asked, 1), MAX_WORKING_SECONDS) };
  }
  return undefined;
}

export async function runScenario(
  scenario: Scenario,
  input: A2ATurnInput,
  signal: AbortSignal | undefined,
): Promise<A2ATurnOutput> {
  if (scenario.kind === "input-required") {
    return {
      reply:
        "scenario input-required: what should I do next? (reply with a message naming this task)",
      inputRequired: true,
    };
  }
  if (scenario.kind === "message") return { reply: "Direct message response", message: true };
  if (scenario.kind === "artifact") {
    return {
      reply: `scenario artifact: ${scenario.artifact}`,
      artifactParts: [artifactPart(scenario.artifact)],
    };
  }
  for (let second = 1; second <= scenario.seconds; second++) {
    await sleep(PROGRESS_EVERY_MS, signal);
    input.progress?.(`scenario working: ${second}/${scenario.seconds} s`);
  }
  return { reply: `scenario working: done after ${scenario.seconds} s` };
}

function artifactPart(kind: ArtifactKind): Part {
  const part = (content: Part["content"], mediaType: string, filename = ""): Part => ({
    content,
    mediaType,
    filename,
    metadata: undefined,
  });
  switch (kind) {
    case "text":
      return part({ $case: "text", value: "Generated text content" }, "text/plain");
    case "file":
      return part({ $case: "raw", value: Buffer.from("tck") }, "text/plain", "output.txt");
    case "file-url":
      return part(
        { $case: "url", value: "https://example.com/output.txt" },
        "text/plain",
        "output.txt",
      );
    case "data":
      return part({ $case: "data", value: { key: "value", count: 42 } }, "application/json");
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Random interleavings of everything that reads or writes one conversation, for any
 * backend: turns, resends of earlier messageIds at any distance, erase, prune and summary
 * jobs, run a few at a time concurrently, as a Worker's requests and its queue consumer would.
 * After each schedule, three invariants are checked against what the backend stores:
 *
 * - R11.2 each messageId is stored once;
 * - R11.1 nothing of a message whose last send ended before an erase (or prune) began is
 *   reachable afterwards — in any place the backend keeps text, the summary included;
 * - R2.4 no turn is lost: every send that began after the last erase ended is stored.
 *
 * A logical clock orders the events: an operation's start and end are ticks of it.
 */
import fc from "fast-check";
import { expect } from "vitest";

export type Op =
  | { readonly kind: "send" }
  | { readonly kind: "resend"; readonly back: number }
  | { readonly kind: "erase" }
  | { readonly kind: "prune" }
  | { readonly kind: "summary"; readonly back: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Op>({ kind: "send" }) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 1, max: 12 }).map<Op>((back) => ({ kind: "resend", back })),
  },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: "erase" }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: "prune" }) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0, max: 4 }).map<Op>((back) => ({ kind: "summary", back })),
  },
);

/** Groups of operations; the operations of one group run at once. */
export const scheduleArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 3 }), {
  minLength: 6,
  maxLength: 12,
});

/** One conversation of a backend, as the schedule drives and inspects it. */
export interface ConversationUnderTest {
  send(messageId: string, text: string): Promise<unknown>;
  erase(): Promise<unknown>;
  /** Prune the conversation (backends without prune: erase). */
  prune(): Promise<unknown>;
  /** A summary job up to message `upto`; its failures and skips are its own business. */
  summary(upto: number): Promise<unknown>;
  /** The ids of the user messages of the stored conversation, in order. */
  storedUserIds(): Promise<string[]>;
  /** Where `needle` is still stored (table or place names); [] when nowhere. */
  whereStored(needle: string): Promise<string[]>;
}

interface Span {
  readonly start: number;
  end: number;
  ok: boolean;
}

export async function runInterleaving(
  run: string,
  conversation: ConversationUnderTest,
  schedule: readonly (readonly Op[])[],
): Promise<void> {
  let clock = 0;
  const tick = () => ++clock;
  /** Sends per message index (the original and its resends). */
  const sends = new Map<number, Span[]>();
  const erases: Span[] = [];
  let sent = 0;
  /** New messages sent since the last erase began: about the stored conversation's turns. */
  let fresh = 0;
  const marker = (i: number) => `mark${run}x${i}z`;
  const messageId = (i: number) => `mid-${run}-${i}`;
  const timed = async (spans: Span[], work: () => Promise<unknown>) => {
    const span: Span = { start: tick(), end: 0, ok: false };
    spans.push(span);
    try {
      await work();
      span.ok = true;
    } finally {
      span.end = tick();
    }
  };
  const send = (i: number) => {
    const spans = sends.get(i) ?? [];
    sends.set(i, spans);
    return timed(spans, () => conversation.send(messageId(i), `remember ${marker(i)} please`));
  };
  const operation = (op: Op): Promise<unknown> => {
    switch (op.kind) {
      case "send":
        sent += 1;
        fresh += 1;
        return send(sent - 1);
      case "resend":
        return sent === 0 ? Promise.resolve() : send(Math.max(0, sent - op.back));
      case "erase":
        fresh = 0;
        return timed(erases, () => conversation.erase());
      case "prune":
        fresh = 0;
        return timed(erases, () => conversation.prune());
      case "summary":
        // Up to a turn the stored conversation has (most of the time): a job that summarizes.
        return conversation.summary(2 * Math.max(1, fresh - op.back)).catch(() => undefined);
    }
  };
  for (const group of schedule) await Promise.all(group.map(operation));

  const userIds = await conversation.storedUserIds();
  expect(new Set(userIds).size, `duplicated ids in ${userIds.join(",")}`).toBe(userIds.length);
  const lastEraseEnd = Math.max(0, ...erases.map((e) => e.end));
  for (const [i, spans] of sends) {
    const lastEnd = Math.max(...spans.map((s) => s.end));
    if (erases.some((e) => e.start > lastEnd)) {
      expect(userIds, `message ${i} was erased`).not.toContain(messageId(i));
      expect(await conversation.whereStored(marker(i)), `message ${i} was erased`).toEqual([]);
    }
    if (spans.some((s) => s.ok && s.start > lastEraseEnd)) {
      expect(userIds, `message ${i} was answered after the last erase`).toContain(messageId(i));
    }
  }
}

/** Runs `numRuns` schedules, each on a conversation of its own. */
export async function assertInterleavings(
  conversationFor: (run: string) => ConversationUnderTest,
  options: { numRuns: number; seed: number },
): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(scheduleArb, async (schedule) => {
      run += 1;
      const name = String(run);
      await runInterleaving(name, conversationFor(name), schedule);
    }),
    { numRuns: options.numRuns, seed: options.seed, endOnFailure: true },
  );
}

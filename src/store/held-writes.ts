/**
 * A turn's writes held until the turn ends, for the object backends' savers (InMemorySaver,
 * SqliteSaver): all-or-nothing turns, as NeonSaver's `deferWrites`. While
 * the turn runner has `holding` on, `put` and `putWrites` are queued per thread;
 * `flushTurn` applies them in order once the turn succeeded (the thread store's rows go in
 * the root checkpoint's write), `discardTurn` drops them (a
 * model or tool failure leaves the thread exactly as it was: no orphan user message). Reads
 * never apply them: held writes are the running turn's, and a read by anything else (the thread
 * view, a summary job in the object) sees the thread as stored — applying them there would
 * store the turn's checkpoint without the rows its store writes with it.
 *
 * Outside a turn (`holding` off: admin, validation suites) every write applies at once.
 *
 * `R`: what a flush's caller writes with the thread's root checkpoint (the thread store's
 * rows); the saver's root put takes it ({@link HeldWrites.takeRoot}) and writes it with the
 * checkpoint, so the two land together or not at all.
 */
export class HeldWrites<R = never> {
  /** Set by the turn runner for the length of a turn (the object's lock serialises turns). */
  holding = false;
  private readonly held = new Map<string, (() => Promise<unknown>)[]>();
  /** While a flush runs: its root write, until the thread's root put takes it. */
  #root: { readonly threadId: string; write: R | undefined } | undefined;

  /** Queue `apply` for the thread when holding; false when the caller must write now. */
  hold(threadId: string, apply: () => Promise<unknown>): boolean {
    if (!this.holding) return false;
    const list = this.held.get(threadId) ?? [];
    list.push(apply);
    this.held.set(threadId, list);
    return true;
  }

  /**
   * Apply the thread's held writes, in order (taken off the queue first), with `root` for its
   * root checkpoint's write. Nothing held: nothing is written, `root` included.
   */
  async flush(threadId: string, root?: R): Promise<void> {
    const list = this.held.get(threadId) ?? [];
    this.held.delete(threadId);
    // The held writes call the saver's write again: that call must apply, not queue.
    const holding = this.holding;
    this.holding = false;
    this.#root = { threadId, write: root };
    try {
      for (const apply of list) await apply();
    } finally {
      this.holding = holding;
      this.#root = undefined;
    }
  }

  /** For the thread's root put during a flush: the flush's root write (once), else undefined. */
  takeRoot(threadId: string): R | undefined {
    const root = this.#root;
    if (root?.threadId !== threadId) return undefined;
    const write = root.write;
    root.write = undefined;
    return write;
  }

  discard(threadId: string): void {
    this.held.delete(threadId);
  }
}

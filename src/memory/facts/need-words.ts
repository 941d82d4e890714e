/**
 * Which need words a clause contains, all at once (rules.ts): an Aho–Corasick automaton over
 * every need word of a rule table, built once per table, walks the lower-cased clause one
 * character at a time and marks each word it passes, overlapping ones included. Checking
 * each row's words with `includes` instead costs a scan of the clause per word, and a table
 * has hundreds of rows.
 */
export class NeedWords {
  /** Word ids by the words themselves. */
  private readonly ids = new Map<string, number>();
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** The word ids that end at each state (its own and those of its fail chain). */
  private out: number[][] = [[]];
  private built = false;

  /** The id of a word (lower case), added when new. */
  id(word: string): number {
    let id = this.ids.get(word);
    if (id !== undefined) return id;
    id = this.ids.size;
    this.ids.set(word, id);
    let state = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      let to = this.next[state]?.get(c);
      if (to === undefined) {
        to = this.next.length;
        this.next.push(new Map());
        this.fail.push(0);
        this.out.push([]);
        this.next[state]?.set(c, to);
      }
      state = to;
    }
    this.out[state]?.push(id);
    this.built = false;
    return id;
  }

  get size(): number {
    return this.ids.size;
  }

  private build(): void {
    const queue: number[] = [];
    for (const to of this.next[0]?.values() ?? []) {
      this.fail[to] = 0;
      queue.push(to);
    }
    for (let at = 0; at < queue.length; at++) {
      const state = queue[at] as number;
      for (const [c, to] of this.next[state] ?? []) {
        let f = this.fail[state] as number;
        while (f !== 0 && this.next[f]?.get(c) === undefined) f = this.fail[f] as number;
        const target = this.next[f]?.get(c);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        this.out[to] = [...(this.out[to] ?? []), ...(this.out[this.fail[to] as number] ?? [])];
        queue.push(to);
      }
    }
    this.built = true;
  }

  /** Marks in `seen` (one slot per word id) every word the lower-cased text contains. */
  scan(lower: string, seen: Uint8Array): void {
    if (!this.built) this.build();
    seen.fill(0);
    let state = 0;
    for (let i = 0; i < lower.length; i++) {
      const c = lower.charCodeAt(i);
      let to = this.next[state]?.get(c);
      while (to === undefined && state !== 0) {
        state = this.fail[state] as number;
        to = this.next[state]?.get(c);
      }
      state = to ?? 0;
      const words = this.out[state] as number[];
      for (let k = 0; k < words.length; k++) seen[words[k] as number] = 1;
    }
  }
}

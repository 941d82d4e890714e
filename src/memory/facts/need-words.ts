/**
 * Which need words a clause contains, all at once (rules.ts): an Aho–Corasick automaton over
 * every need word of a rule table, built once per table, walks the lower-cased clause one
 * character at a time and marks each word it passes, overlapping ones included. Checking
 * each row's words with `includes` instead costs a scan of the clause per word, and a table
 * has hundreds of rows. The automaton is a few flat arrays and one map of its edges, so a
 * fresh isolate builds it in little time.
 */
export class NeedWords {
  /** Word ids by the words themselves. */
  private readonly ids = new Map<string, number>();
  /** Edges: state × 65536 + character code → state. */
  private readonly edges = new Map<number, number>();
  private readonly depth: number[] = [0];
  private readonly parent: number[] = [0];
  private readonly char: number[] = [0];
  /** The word that ends at each state, or -1. */
  private readonly word: number[] = [-1];
  private fail: number[] = [];
  /** The nearest state down the fail chain where a word ends (0: none). */
  private outLink: number[] = [];
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
      let to = this.edges.get(state * 65536 + c);
      if (to === undefined) {
        to = this.word.length;
        this.word.push(-1);
        this.depth.push(i + 1);
        this.parent.push(state);
        this.char.push(c);
        this.edges.set(state * 65536 + c, to);
      }
      state = to;
    }
    this.word[state] = id;
    this.built = false;
    return id;
  }

  get size(): number {
    return this.ids.size;
  }

  /** Fail links and output links, states taken in order of depth. */
  private build(): void {
    const states = this.word.length;
    // States by depth: a counting sort (a parent is always shallower than its child).
    const counts: number[] = [];
    for (let s = 0; s < states; s++) {
      const d = this.depth[s] as number;
      counts[d] = (counts[d] ?? 0) + 1;
    }
    const starts: number[] = [0];
    for (let d = 1; d < counts.length; d++) {
      starts[d] = (starts[d - 1] as number) + (counts[d - 1] ?? 0);
    }
    const order = new Array<number>(states);
    for (let s = 0; s < states; s++) {
      const d = this.depth[s] as number;
      order[starts[d] as number] = s;
      starts[d] = (starts[d] as number) + 1;
    }
    const fail = new Array<number>(states).fill(0);
    const outLink = new Array<number>(states).fill(0);
    for (const s of order) {
      const p = this.parent[s] as number;
      if (s === 0 || p === 0) continue;
      const c = this.char[s] as number;
      let f = fail[p] as number;
      let to = this.edges.get(f * 65536 + c);
      while (to === undefined && f !== 0) {
        f = fail[f] as number;
        to = this.edges.get(f * 65536 + c);
      }
      const target = to ?? 0;
      fail[s] = target;
      outLink[s] = (this.word[target] as number) >= 0 ? target : (outLink[target] as number);
    }
    this.fail = fail;
    this.outLink = outLink;
    this.built = true;
  }

  /** Marks in `seen` (one slot per word id) every word the lower-cased text contains. */
  scan(lower: string, seen: Uint8Array): void {
    if (!this.built) this.build();
    seen.fill(0);
    const { edges, fail, outLink, word } = this;
    let state = 0;
    for (let i = 0; i < lower.length; i++) {
      const c = lower.charCodeAt(i);
      let to = edges.get(state * 65536 + c);
      while (to === undefined && state !== 0) {
        state = fail[state] as number;
        to = edges.get(state * 65536 + c);
      }
      state = to ?? 0;
      for (let t = state; t !== 0; t = outLink[t] as number) {
        const id = word[t] as number;
        if (id >= 0) seen[id] = 1;
      }
    }
  }
}

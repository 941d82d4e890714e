/**
 * CPU time of another process of this machine, for the Worker systems: the turn runs in
 * workerd (wrangler's child process), so this process's `cpuUsage` does not see it. Linux only
 * (the kernel's per-thread run time in `/proc/<pid>/task/<tid>/schedstat`, nanoseconds).
 * Which workerd process runs the Worker is bench-worker.ts's business.
 */
import { readdirSync, readFileSync } from "node:fs";

/** The pids of this process's descendants whose command name contains `name`. */
export function descendantsNamed(name: string, root = process.pid): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const d of entries) {
    try {
      // "<pid> (<comm>) <state> <ppid> …"; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      parent.set(Number(d), ppid);
      comm.set(Number(d), stat.slice(stat.indexOf("(") + 1, close));
    } catch {
      // gone since the listing
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) return true;
    }
    return false;
  };
  return [...comm].filter(([pid, c]) => c.includes(name) && isDescendant(pid)).map(([p]) => p);
}

/** Nanoseconds the process `pid` has run on a CPU, all its threads together. */
export function processCpuNanos(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return total;
}

export interface ProcessCpu {
  /** CPU nanoseconds of the watched processes so far. */
  now(): number;
  /**
   * Waits until the watched processes are idle (no CPU for `quietMs`, at most `maxMs`), so
   * work a request left running after its answer (waitUntil) is counted with it.
   */
  settle(quietMs?: number, maxMs?: number): Promise<number>;
}

/** When the process started (clock ticks after boot, `/proc/<pid>/stat` field 22). */
export function processStartTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after "(<comm>)": state is field 3, so starttime (22) is index 19 of the rest.
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

/** The CPU of the given processes (all their threads). */
export function processesCpu(pids: readonly number[]): ProcessCpu {
  const now = () => pids.reduce((sum, pid) => sum + processCpuNanos(pid), 0);
  return {
    now,
    async settle(quietMs = 5, maxMs = 250) {
      const deadline = Date.now() + maxMs;
      let last = now();
      for (;;) {
        await new Promise((r) => setTimeout(r, quietMs));
        const current = now();
        if (current === last || Date.now() > deadline) return current;
        last = current;
      }
    },
  };
}

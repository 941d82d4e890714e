/** A one-line description of where a bench ran (CPU, cores, memory, OS, Node, Postgres). */
import { cpus, loadavg, platform, release, totalmem } from "node:os";
import pg from "pg";

/** `dsn` undefined: the database is the embedded PGlite. */
export async function describeMachine(dsn: string | undefined): Promise<string> {
  const cpu = cpus();
  let postgres = "embedded PGlite";
  if (dsn !== undefined) {
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      const { rows } = await client.query<{ server_version: string }>("SHOW server_version");
      postgres = `PostgreSQL ${rows[0]?.server_version ?? "?"} on localhost`;
    } finally {
      await client.end();
    }
  }
  const gib = (totalmem() / 1024 ** 3).toFixed(0);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  return `${cpu[0]?.model.trim() ?? "unknown CPU"} × ${cpu.length} cores, ${gib} GiB RAM, ${platform()} ${release()}, Node ${process.versions.node}, ${postgres}; load average at start ${load} (the machine is shared)`;
}

/** The command line as typed (npx tsx bench/… args). */
export function commandLine(script: string): string {
  const args = process.argv.slice(2);
  return ["npx tsx", script, ...args].join(" ");
}

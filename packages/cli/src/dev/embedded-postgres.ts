/**
 * Embedded Postgres for machines without a server: PGlite (Postgres compiled to WASM),
 * its data kept in a folder, served on a local TCP port so node-postgres — and through the
 * Neon-protocol proxy, the Worker — reach it like any Postgres. Dev and tests only.
 *
 * PGlite has one session. Several client connections share it safely only if their
 * protocol exchanges never interleave, so `SerialQueue` gives one connection the session
 * from its first message until the exchange ends (Sync or a simple Query completes) outside
 * a transaction; an open transaction keeps the session with its connection until it ends
 * or the connection drops (then it is rolled back). Session settings (SET) are still shared
 * by all connections — a PGlite limit; the Neon proxy resets them after every request.
 */
import { mkdir } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import { LlamonError } from "llamon/errors";

export interface EmbeddedPostgres {
  /** postgresql://postgres@localhost:PORT/postgres */
  readonly dsn: string;
  readonly port: number;
  readonly dataDir: string;
  close(): Promise<void>;
}

type HandlerOptions = ConstructorParameters<typeof PGLiteSocketHandler>[0];

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

/** Hands the single PGlite session to one connection per protocol exchange. */
class SerialQueue {
  private owner: number | null = null;
  private readonly waiting: Pending[] = [];
  private running = false;

  constructor(private readonly db: PGlite) {}

  enqueue(
    handlerId: number,
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ handlerId, message, onData, resolve, reject });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const index =
          this.owner === null ? 0 : this.waiting.findIndex((p) => p.handlerId === this.owner);
        const next = index >= 0 ? this.waiting.splice(index, 1)[0] : undefined;
        if (next === undefined) break;
        // A startup packet begins with its length (first byte 0), typed messages with a letter.
        const type = next.message[0] ?? 0;
        if (type !== 0) this.owner = next.handlerId;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(next.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                next.onData(data);
              },
            }),
          );
          next.resolve(bytes);
        } catch (error) {
          next.reject(error);
        }
        const exchangeDone = type === SYNC || type === QUERY || type === TERMINATE;
        if (type === 0 || (exchangeDone && !this.db.isInTransaction())) this.owner = null;
      }
    } finally {
      this.running = false;
    }
  }

  getQueueLength(): number {
    return this.waiting.length;
  }

  clearQueueForHandler(handlerId: number): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const p = this.waiting[i];
      if (p?.handlerId === handlerId) {
        this.waiting.splice(i, 1);
        p.reject(new Error("connection closed"));
      }
    }
  }

  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    void this.pump();
  }
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
}): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  let db: PGlite;
  try {
    // pgvector ships with PGlite: semantic recall (migration 0009) works on the embedded default.
    db = await PGlite.create(dataDir, { extensions: { vector } });
  } catch (error) {
    throw new LlamonError(
      "DB_UNAVAILABLE",
      `could not open the embedded Postgres data folder ${dataDir}: ${(error as Error).message}. Is another llamon process using it? Stop it, or pass a different folder.`,
      { cause: error },
    );
  }
  const queue = new SerialQueue(db);
  const handlers = new Set<PGLiteSocketHandler>();
  const server: Server = createServer((socket: Socket) => {
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as HandlerOptions["queryQueue"],
      closeOnDetach: true,
    });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener("close", forget);
    handler.addEventListener("error", forget);
    handler.attach(socket).catch(() => {
      forget();
      socket.destroy();
    });
  });
  try {
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(options.port ?? 0, "127.0.0.1", () => ok());
    });
  } catch (error) {
    // The port is taken: let go of the data folder before reporting it.
    await db.close().catch(() => {});
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    dsn: `postgresql://postgres@localhost:${port}/postgres`,
    port,
    dataDir,
    async close() {
      for (const h of handlers) await h.detach(true);
      await new Promise<void>((ok) => server.close(() => ok()));
      await db.close();
    },
  };
}

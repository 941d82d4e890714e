/**
 * node:sqlite behind the SqliteExec interface the Durable Object saver uses, for running
 * SqliteSaver in Node: savepoints make transactions nest; `statements` counts what ran.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { SqliteExec } from "../../src/store/sqlite-sql.ts";

export function nodeSqlite(db: DatabaseSync): SqliteExec & { statements: number } {
  let depth = 0;
  return {
    statements: 0,
    exec(sql, ...params) {
      this.statements += 1;
      const found = db.prepare(sql).all(...(params as SQLInputValue[]));
      return { toArray: () => found };
    },
    transaction(fn) {
      const name = `llamon_tx_${depth++}`;
      db.exec(`SAVEPOINT ${name}`);
      try {
        const result = fn();
        db.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
        throw error;
      } finally {
        depth--;
      }
    },
  };
}

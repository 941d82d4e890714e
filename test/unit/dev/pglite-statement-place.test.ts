import { describe, expect, it } from "vitest";
import { pgliteStatementPlace } from "../../../packages/cli/src/dev/neon-roles.ts";

describe("R10.1 where the local Neon proxy runs a single statement on PGlite", () => {
  it("transaction control runs as it comes (a wrapper would change what it does)", () => {
    for (const q of [
      "BEGIN",
      "  begin isolation level serializable",
      "COMMIT",
      "end",
      "ROLLBACK",
      "SAVEPOINT s",
      "release s",
      "START TRANSACTION",
      "-- note\nCOMMIT",
      "/* x */ ABORT",
      "PREPARE TRANSACTION 'x'",
    ]) {
      expect(pgliteStatementPlace(q), q).toBe("plain");
    }
  });

  it("what cannot run in a transaction block runs after a session-level SET ROLE", () => {
    for (const q of [
      "VACUUM t",
      "vacuum",
      "CREATE DATABASE x",
      "drop database x",
      "CREATE INDEX CONCURRENTLY i ON t (a)",
      "ALTER SYSTEM SET x = 1",
      "REINDEX DATABASE x",
    ]) {
      expect(pgliteStatementPlace(q), q).toBe("session-role");
    }
  });

  it("everything else runs in the role's transaction", () => {
    for (const q of [
      "SELECT 1",
      "INSERT INTO begin_log VALUES (1)",
      "PREPARE p AS SELECT 1",
      "SET statement_timeout = 5",
      "WITH x AS (SELECT 1) SELECT * FROM x",
      "CREATE TABLE t (a int)",
    ]) {
      expect(pgliteStatementPlace(q), q).toBe("transaction");
    }
  });
});

import { describe, expect, it } from "vitest";
import { toDbError } from "../../../src/store/db.ts";
import { redactDsn, redactSecrets } from "../../../src/store/dsn.ts";

describe("connection strings never leak passwords", () => {
  it("redacts the password of a DSN, in userinfo and as a query parameter", () => {
    expect(redactDsn("postgresql://alice:s3cret@db.example.com:5432/app")).toBe(
      "postgresql://alice:****@db.example.com:5432/app",
    );
    expect(redactDsn("postgresql://alice@db/app?password=s3cret")).toBe(
      "postgresql://alice@db/app?password=****",
    );
    expect(redactDsn("postgresql://alice@db/app")).toBe("postgresql://alice@db/app");
  });

  it("redacts connection strings quoted inside driver messages", () => {
    expect(redactSecrets("bad url postgres://bob:p@ss@host/db here")).toBe(
      "bad url postgres://bob:****@host/db here",
    );
    expect(redactSecrets("see postgresql://bob:hunter2@host/db")).toBe(
      "see postgresql://bob:****@host/db",
    );
  });

  it("keeps passwords out of DB errors built from driver messages", () => {
    const error = toDbError(new Error("Invalid URL postgresql://u:topsecret@h/db"), "neon-http");
    expect(error.code).toBe("DB_UNAVAILABLE");
    expect(error.message).not.toContain("topsecret");
  });
});

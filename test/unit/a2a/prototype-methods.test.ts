import { describe, expect, it } from "vitest";
import { makeApp } from "./helpers.ts";

describe("method names that exist on Object.prototype", () => {
  it.each(["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"])(
    "%s is an unknown method (-32601), not a crash, and runs no turn",
    async (method) => {
      const t = makeApp();
      const res = await t.app.fetch(
        new Request("http://agent.local/", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }),
        }),
      );
      expect(res.status).toBeLessThan(500);
      const body = (await res.json()) as { error?: { code: number } };
      expect(body.error?.code).toBe(-32601);
      expect(t.turns.inputs).toHaveLength(0);
    },
  );
});

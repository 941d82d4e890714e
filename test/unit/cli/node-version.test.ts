/**
 * The CLI's Node check (packages/cli/src/cli/node-version.ts): a Node older than package.json `engines`
 * is NODE_UNSUPPORTED with the version it needs, before anything else loads; the projects
 * `llamon agent` makes carry no Node of their own, so this is what an old Node meets.
 */
import { describe, expect, it } from "vitest";
import {
  checkNodeVersion,
  minimumNode,
  requiredNode,
} from "../../../packages/cli/src/cli/node-version.ts";
import { isLlamonError } from "../../../src/errors.ts";

function caught(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("the Node version the CLI needs", () => {
  it("reads the minimum from llamon's engines", () => {
    expect(requiredNode()).toBe(">=22.18");
    expect(minimumNode(">=22.18")).toEqual([22, 18]);
    expect(minimumNode(">= 24.1.0")).toEqual([24, 1]);
  });

  it("an older Node is NODE_UNSUPPORTED naming both versions and what to install", () => {
    for (const version of ["20.20.2", "22.17.1", "18.0.0"]) {
      const error = caught(() => checkNodeVersion(version, ">=22.18"));
      expect(isLlamonError(error, "NODE_UNSUPPORTED"), version).toBe(true);
      expect((error as Error).message).toContain("llamon needs Node.js 22.18 or newer");
      expect((error as Error).message).toContain(`this is Node.js ${version}`);
      expect((error as Error).message).toContain("Install Node.js 22 LTS");
    }
  });

  it("the minimum itself and anything newer pass", () => {
    for (const version of ["22.18.0", "22.23.3", "23.0.0", "24.11.1"]) {
      expect(
        caught(() => checkNodeVersion(version, ">=22.18")),
        version,
      ).toBeUndefined();
    }
  });

  it("an engines range it cannot read is a bug in llamon, not the user's Node", () => {
    expect(
      isLlamonError(
        caught(() => minimumNode("^22")),
        "INTERNAL",
      ),
    ).toBe(true);
  });
});

/**
 * The name the interactive scaffold offers (R9.1): Enter takes it. The folder given with --dir
 * names the project; otherwise "my-agent", or the next free "my-agent-N" when that folder is
 * taken; after a refused name, that name made valid.
 */
import { describe, expect, it } from "vitest";
import {
  defaultProjectName,
  retryProjectName,
} from "../../../packages/cli/src/cli/scaffold/names.ts";

describe("the project name the scaffold offers", () => {
  it("R9.1 is the --dir folder's name when it makes a valid name", () => {
    expect(defaultProjectName("my-agent", "support-bot", () => true)).toBe("support-bot");
    expect(defaultProjectName("my-agent", "Support Bot", () => true)).toBe("support-bot");
    // A folder name that cannot become a project name: the usual offer.
    expect(defaultProjectName("my-agent", "123", () => true)).toBe("my-agent");
  });

  it("R9.1 is the example name, or the next one whose folder is free", () => {
    expect(defaultProjectName("my-agent", undefined, () => true)).toBe("my-agent");
    const taken = new Set(["my-flow", "my-flow-2"]);
    expect(defaultProjectName("my-flow", undefined, (name) => !taken.has(name))).toBe("my-flow-3");
  });

  it("R9.1 after a refused name offers it made valid, and nothing when there is no such name", () => {
    expect(retryProjectName("Bad Name")).toBe("bad-name");
    expect(retryProjectName("my_agent")).toBe("my-agent");
    expect(retryProjectName("42")).toBeUndefined();
    expect(retryProjectName("llamon")).toBeUndefined();
  });
});

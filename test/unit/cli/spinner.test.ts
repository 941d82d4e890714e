/**
 * Progress of long CLI work: plain lines where the output is not a terminal (CI logs, pipes),
 * @clack/prompts' spinner on a terminal, which hands back the signals and keys it took.
 */
import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withSpinner } from "../../../packages/cli/src/cli/spinner.ts";
import { caught } from "../../helpers/caught.ts";

function capture(isTTY: boolean) {
  let written = "";
  const output = Object.assign(
    new Writable({
      write(chunk, _encoding, callback) {
        written += String(chunk);
        callback();
      },
    }),
    { isTTY },
  );
  return { output, written: () => written };
}

const listeners = () => ({
  SIGINT: process.listenerCount("SIGINT"),
  SIGTERM: process.listenerCount("SIGTERM"),
  SIGHUP: process.listenerCount("SIGHUP"),
  keypress: process.stdin.listenerCount("keypress"),
});

describe("progress of long work", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("without a terminal: one plain line to start, one per step, one at the end; no frames", async () => {
    const { output, written } = capture(false);
    const result = await withSpinner(
      "installing dependencies",
      async (progress) => {
        progress.update("step 1 of 2");
        progress.update("step 2 of 2");
        return 7;
      },
      (n) => `${n} packages installed`,
      { output },
    );
    expect(result).toBe(7);
    expect(written()).toBe(
      "installing dependencies …\n  step 1 of 2\n  step 2 of 2\n✔ 7 packages installed\n",
    );
  });

  it("work that returns a failure ends on a ✖ line, not a ✔ one", async () => {
    const { output, written } = capture(false);
    const code = await withSpinner(
      "installing dependencies",
      async () => 1,
      (c) => (c === 0 ? "dependencies installed" : { failed: "npm install failed" }),
      { output },
    );
    expect(code).toBe(1);
    expect(written()).toBe("installing dependencies …\n✖ npm install failed\n");
  });

  it("on a terminal under CI: the same plain lines", async () => {
    vi.stubEnv("CI", "true");
    const { output, written } = capture(true);
    await withSpinner("bundling", async () => undefined, undefined, { output });
    expect(written()).toBe("bundling …\n✔ bundling — done\n");
  });

  it("without a terminal, a failure names the step it failed in and is rethrown", async () => {
    const { output, written } = capture(false);
    const failure = new Error("npm exited 1");
    const error = await caught(
      withSpinner(
        "installing dependencies",
        async (progress) => {
          progress.update("fetching packages");
          throw failure;
        },
        undefined,
        { output },
      ),
    );
    expect(error).toBe(failure);
    expect(written()).toBe("installing dependencies …\n  fetching packages\n✖ fetching packages\n");
  });

  it("on a terminal: the spinner ends on the result line and gives back the signals and keys", async () => {
    vi.stubEnv("CI", "");
    const before = listeners();
    const { output, written } = capture(true);
    await withSpinner(
      "deleting 3 thread(s)",
      async (progress) => {
        expect(listeners().SIGHUP).toBe(before.SIGHUP + 1);
        expect(listeners().keypress).toBeGreaterThan(before.keypress);
        progress.update("batch 1/1");
        await new Promise((r) => setTimeout(r, 120));
      },
      () => "deleted 3 thread(s)",
      { output },
    );
    expect(stripVTControlCharacters(written())).toMatch(/deleted 3 thread\(s\)\n$/);
    expect(listeners()).toEqual(before);

    const failed = capture(true);
    await caught(
      withSpinner(
        "indexing",
        async () => {
          throw new Error("database went away");
        },
        undefined,
        { output: failed.output },
      ),
    );
    expect(stripVTControlCharacters(failed.written())).toMatch(/indexing\n$/);
    expect(listeners()).toEqual(before);
  });
});

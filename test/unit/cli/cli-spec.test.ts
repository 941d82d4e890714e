/**
 * `llamon agent … --llamon <spec>` names llamon instead of packing it into vendor/; the project's
 * llamon-cli devDependency then follows it (packages/cli/src/cli/scaffold/create.ts): the same
 * version range or dist-tag (both packages are published together), or the CLI of a checkout
 * given as `file:<folder>`. A spec that names no CLI asks for --llamon-cli.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cliSpecFor } from "../../../packages/cli/src/cli/scaffold/create.ts";
import { isLlamonError } from "../../../src/errors.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const project = mkdtempSync(join(tmpdir(), "llamon-cli-spec-"));

describe("the llamon-cli spec that goes with --llamon", () => {
  it("R9.2 a version range or a dist-tag: the same for llamon-cli", () => {
    for (const spec of ["^0.1.0", "0.1.0", "~0.1", ">=0.1.0 <0.2.0", "latest", "next"]) {
      expect(cliSpecFor(spec, project), spec).toBe(spec);
    }
  });

  it("R9.2 a checkout as file:<folder>: its packages/cli, absolute or relative to the project", () => {
    expect(cliSpecFor(`file:${REPO}`, project)).toBe(`file:${REPO}/packages/cli`);
    const fromProject = relative(project, REPO);
    expect(cliSpecFor(`file:${fromProject}`, project)).toBe(`file:${fromProject}/packages/cli`);
  });

  it("R9.2 a spec that names no CLI (a git URL, a tarball, a folder without packages/cli) → CONFIG_INVALID naming --llamon-cli", () => {
    for (const spec of [
      "git+https://example.com/owner/llamon.git",
      "file:vendor/llamon-0.1.0.tgz",
      `file:${project}`,
    ]) {
      let thrown: unknown;
      try {
        cliSpecFor(spec, project);
      } catch (error) {
        thrown = error;
      }
      expect(isLlamonError(thrown) && thrown.code, spec).toBe("CONFIG_INVALID");
      expect((thrown as Error).message, spec).toContain("--llamon-cli");
    }
  });
});

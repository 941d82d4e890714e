/**
 * The order `npm test` starts its files in. Two run at a time (maxWorkers), and the run lasts
 * as long as the slot that finishes last, so the files that take longest start first and the
 * many short ones fill in behind them (longest processing time first).
 *
 * Vitest's own order is by project name (embedded, node, unit, workers…), and within a project
 * by the durations of the last run when it has them, else by file size: in a fresh clone that
 * started the longest end-to-end files half way through and left the Worker projects for the
 * end. Here the projects keep that inner order and come in tiers instead; files of one
 * project stay next to each other, which the projects that share a worker between files
 * (`isolate: false`: unit, workers) need for the sharing to happen.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * End-to-end files that take several times longer than any other (they install, typecheck and
 * test generated projects): first, each in a slot of its own from the start.
 */
const LONGEST = [
  "test/e2e/offline.test.ts",
  "test/e2e/scaffold.test.ts",
  "test/e2e/scaffold-run.test.ts",
];

function tier(spec: TestSpecification): number {
  const file = relative(spec.project.config.root, spec.moduleId).replaceAll("\\", "/");
  const project = spec.project.name;
  if (LONGEST.includes(file)) return 0;
  // CLI processes: wrangler, workerd, npm, PGlite and Postgres started for each file.
  if (file.startsWith("test/e2e/")) return 1;
  // The database tests, on the server Postgres (node) and on PGlite (embedded).
  if (project === "node" || project === "embedded") return 2;
  // The Worker projects: workerd for each file, or shared between files (workers).
  if (project.startsWith("workers")) return 3;
  // Unit tests: many short files in one shared worker, to fill the end of the run.
  return 4;
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, index) => ({ spec, index, tier: tier(spec) }))
      .sort((a, b) => a.tier - b.tier || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

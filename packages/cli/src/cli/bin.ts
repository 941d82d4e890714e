#!/usr/bin/env node
/**
 * The `llamon` executable (package.json `bin`, built to dist/cli/bin.js). It checks the Node
 * version first and only then loads the command line, whose dependencies need a recent Node.
 */
import { checkNodeVersion, requiredNode } from "./node-version.ts";
import { reportError } from "./output.ts";

try {
  checkNodeVersion(process.versions.node, requiredNode());
} catch (error) {
  process.exit(reportError(error));
}
const { main } = await import("./main.ts");
await main(process.argv);

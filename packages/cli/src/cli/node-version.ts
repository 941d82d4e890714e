/**
 * The Node.js llamon's command line needs: the minimum of package.json `engines.node`
 * (">=22.18"), checked before anything else loads, so an older Node gets one line that names
 * the version instead of a syntax or import error from deep inside a dependency. 22.18 is
 * where Node runs a project's TypeScript (src/agent.ts, read by `run` and `doctor`) without a
 * loader, and wrangler needs 22 too.
 *
 * Kept to syntax and APIs that old Node versions parse, because it runs before the check.
 */
import { createRequire } from "node:module";
import { LlamonError } from "llamon/errors";

/** "major.minor" of an `engines` range written as ">=MAJOR.MINOR[.PATCH]". */
export function minimumNode(range: string): [number, number] {
  const match = /^\s*>=\s*(\d+)\.(\d+)/.exec(range);
  if (!match) throw new LlamonError("INTERNAL", `llamon's engines.node is not ">=X.Y": ${range}`);
  return [Number(match[1]), Number(match[2])];
}

/** NODE_UNSUPPORTED when `version` (process.versions.node) is below the range's minimum. */
export function checkNodeVersion(version: string, range: string): void {
  const [needMajor, needMinor] = minimumNode(range);
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return;
  throw new LlamonError(
    "NODE_UNSUPPORTED",
    `llamon needs Node.js ${needMajor}.${needMinor} or newer (package.json engines "${range}"); this is Node.js ${version}. ` +
      `Install Node.js ${needMajor} LTS (https://nodejs.org, or \`nvm install ${needMajor}\`) and run the command again.`,
  );
}

/** The range in llamon's own package.json. */
export function requiredNode(): string {
  const pkg = createRequire(import.meta.url)("../../package.json") as {
    engines?: { node?: string };
  };
  return pkg.engines?.node ?? ">=22.18";
}

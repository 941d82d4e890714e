#!/usr/bin/env node
// The llamon CLI. Runs the TypeScript sources through tsx so the package needs no build step.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `llamon needs Node.js 22.12 or newer (this is ${process.versions.node}). ` +
      "Run it through npm so the project's pinned Node is used: `npx llamon …` or `npm run …`.",
  );
  process.exit(1);
}
// The command line's own tools (package.json `cliDependencies`) are not runtime dependencies of
// llamon, so that a Worker's production install does not get them; projects made by
// `llamon agent` list them as devDependencies. Say which are missing instead of failing on an
// import.
const { default: pkg } = await import("../package.json", { with: { type: "json" } });
const CLI_TOOLS = Object.keys(pkg.cliDependencies ?? {});
const missing = CLI_TOOLS.filter((name) => {
  try {
    import.meta.resolve(name);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  console.error(
    `error [CONFIG_INVALID]: llamon's command line needs ${missing.join(", ")}, which ${missing.length === 1 ? "is" : "are"} not installed. ` +
      `Add ${missing.length === 1 ? "it" : "them"} to the project's devDependencies: npm install --save-dev ${missing.join(" ")}`,
  );
  process.exit(1);
}
const { register } = await import("tsx/esm/api");
register();
const { main } = await import("../src/cli/main.ts");
await main(process.argv);

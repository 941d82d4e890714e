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
const { register } = await import("tsx/esm/api");
register();
const { main } = await import("../src/cli/main.ts");
await main(process.argv);

/**
 * For the vitest projects (Node and workerd): `import script from "./client.bundle.js"` in
 * src/studio/ gets the client bundled from its sources at import time, so tests never see
 * a stale or missing generated file.
 */
import { readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Plugin } from "vite";
import {
  buildStudioClient,
  STUDIO_CLIENT_DIR,
  STUDIO_CLIENT_MODULE,
  studioClientModule,
} from "./build-studio.mts";

const VIRTUAL_ID = "\0llamon-studio-client.js";

export function studioClientPlugin(): Plugin {
  return {
    name: "llamon-studio-client",
    enforce: "pre",
    resolveId(source, importer) {
      if (importer === undefined || !source.endsWith("/client.bundle.js")) return null;
      const from = dirname(importer.split("?")[0] ?? importer);
      return resolve(from, source) === STUDIO_CLIENT_MODULE ? VIRTUAL_ID : null;
    },
    async load(id) {
      if (id !== VIRTUAL_ID) return null;
      for (const file of await readdir(STUDIO_CLIENT_DIR))
        this.addWatchFile(join(STUDIO_CLIENT_DIR, file));
      return studioClientModule(await buildStudioClient());
    },
  };
}

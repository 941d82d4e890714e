/**
 * A scaffolded project's package-lock.json, cut from the llamon workspace's lockfile: the
 * project installs exactly the versions llamon was tested with, and `npm install` needs only
 * tarballs (already in the npm cache after `npm ci` in the llamon checkout), no registry
 * metadata — so scaffolding works offline, and `prepare-offline` has a lockfile to bundle.
 *
 * The project's tree has the same shape as the workspace's: llamon's and llamon-cli's
 * dependencies sit at the top of node_modules in both, and the project's own dependencies are
 * a subset of theirs (its devDependencies included). So the project's entries are the
 * workspace lockfile's entries reachable from the project's dependencies, copied verbatim but
 * for their `dev` flag, which is the project's own: llamon-cli is a devDependency of the
 * project, so what only it (or another devDependency) needs is dev, and `npm ci --omit=dev`
 * leaves it out.
 */

export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optional?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

export interface Lockfile {
  name?: string;
  version?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

export interface ProjectRoot {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly engines?: Record<string, string> | undefined;
}

/** A package of the workspace (llamon, llamon-cli), packed into the project's vendor/. */
export interface LlamonLock {
  /** The dependency spec in the project's package.json, e.g. file:vendor/llamon-0.1.0.tgz. */
  readonly spec: string;
  readonly integrity: string;
  readonly version: string;
  readonly dependencies: Record<string, string>;
  readonly bin: Record<string, string>;
  readonly engines?: Record<string, string> | undefined;
  readonly license?: string | undefined;
  readonly peerDependencies?: Record<string, string> | undefined;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }> | undefined;
}

const LLAMON = "node_modules/llamon";
const CLI = "node_modules/llamon-cli";

function vendored(pkg: LlamonLock): LockEntry {
  return {
    version: pkg.version,
    resolved: pkg.spec,
    integrity: pkg.integrity,
    ...(pkg.license ? { license: pkg.license } : {}),
    dependencies: pkg.dependencies,
    ...(pkg.peerDependencies ? { peerDependencies: pkg.peerDependencies } : {}),
    ...(pkg.peerDependenciesMeta ? { peerDependenciesMeta: pkg.peerDependenciesMeta } : {}),
    ...(Object.keys(pkg.bin).length > 0 ? { bin: pkg.bin } : {}),
    ...(pkg.engines ? { engines: pkg.engines } : {}),
  };
}

const REGISTRY = "https://registry.npmjs.org";

/** The package name installed at a lockfile path: node_modules/a/node_modules/@s/b → @s/b. */
export function packageNameAt(path: string): string {
  return path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
}

/**
 * Registry tarball URL for entries that have none (npm's omit-lockfile-registry-resolved):
 * with it, installing needs only tarballs (npm swaps the host for the configured registry),
 * not registry metadata that an offline cache may lack.
 */
function withResolved(path: string, entry: LockEntry): LockEntry {
  if (entry.resolved !== undefined || entry.version === undefined || entry.link) return entry;
  const name = typeof entry.name === "string" ? entry.name : packageNameAt(path);
  const base = name.slice(name.lastIndexOf("/") + 1);
  return { ...entry, resolved: `${REGISTRY}/${name}/-/${base}-${entry.version}.tgz` };
}

/** Where node would find `name` when required from the package installed at `from`. */
function locate(
  packages: Record<string, LockEntry>,
  from: string,
  name: string,
): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === "") return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut === -1 ? "" : base.slice(0, cut);
  }
}

/** The project's lockfile, or an Error naming what the workspace's lockfile lacks. */
export function projectLockfile(
  source: Lockfile,
  root: ProjectRoot,
  llamon: LlamonLock,
  cli: LlamonLock,
): Lockfile {
  if (source.lockfileVersion < 2 || typeof source.packages !== "object") {
    throw new Error("llamon's package-lock.json is not lockfile version 2 or 3");
  }
  const src = source.packages;
  const out: Record<string, LockEntry> = {
    "": {
      name: root.name,
      version: root.version,
      dependencies: root.dependencies,
      devDependencies: root.devDependencies,
      ...(root.engines ? { engines: root.engines } : {}),
    },
    [LLAMON]: vendored(llamon),
    [CLI]: vendored(cli),
  };
  /** Entries a production install needs: reached from llamon or a project dependency. */
  const production = new Set<string>([LLAMON]);
  const queue: [from: string, name: string, optional: boolean, dev: boolean][] = [];
  // Production first, so an entry that both sides reach is walked (and kept) as production.
  for (const name of Object.keys(llamon.dependencies)) queue.push([LLAMON, name, false, false]);
  for (const name of Object.keys(root.dependencies)) {
    if (name !== "llamon") queue.push(["", name, false, false]);
  }
  for (const name of Object.keys(cli.dependencies)) {
    if (name !== "llamon") queue.push([CLI, name, false, true]);
  }
  for (const name of Object.keys(root.devDependencies)) {
    if (name !== "llamon-cli") queue.push(["", name, false, true]);
  }
  while (queue.length > 0) {
    const [from, name, optional, dev] = queue.shift() as [string, string, boolean, boolean];
    // The vendored packages' dependencies resolve at the top level (their entries have no nesting).
    const path = locate(src, from === LLAMON || from === CLI ? "" : from, name);
    if (path === undefined) {
      if (optional) continue;
      throw new Error(
        `llamon's package-lock.json has no entry for ${name} (needed by ${from || "the project"}); run npm install in llamon`,
      );
    }
    if (out[path] !== undefined && (dev || production.has(path))) continue;
    if (!dev) production.add(path);
    const entry = src[path] as LockEntry;
    if (entry.link) throw new Error(`llamon's package-lock.json links ${path}; cannot copy it`);
    out[path] = withResolved(path, entry);
    for (const dep of Object.keys(entry.dependencies ?? {})) queue.push([path, dep, false, dev]);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
      queue.push([path, dep, true, dev]);
    }
    for (const dep of Object.keys(entry.peerDependencies ?? {})) {
      const optionalPeer = entry.peerDependenciesMeta?.[dep]?.optional === true;
      if (!optionalPeer) queue.push([path, dep, true, dev]);
    }
  }
  const packages: Record<string, LockEntry> = {};
  for (const key of Object.keys(out).sort()) {
    const { dev: _dev, devOptional: _devOptional, ...entry } = out[key] as LockEntry;
    packages[key] = key === "" || production.has(key) ? entry : { ...entry, dev: true };
  }
  return {
    name: root.name,
    version: root.version,
    lockfileVersion: 3,
    requires: true,
    packages,
  };
}

/**
 * Values derived from the Worker's env, computed once per isolate instead of once per request:
 * the validated variables (env.ts), the deploy-time config and a request's config with its
 * run-time layer (config.ts). Each is a zod
 * validation, and zod runs without its compiled fast path in workerd (no `new Function`), so
 * validating the same env three or four times per request was a visible share of a turn.
 *
 * A value is kept per env object together with a snapshot of that object's entries and the
 * other arguments; it is reused only while every entry and argument is still the same
 * (identity), so an env that changes (a test that edits it, a new deployment's env) is
 * validated again. An invalid env is never cached: its error is raised on every call.
 * Cached values are frozen, so no caller can change what later requests get.
 */

interface Entry<T> {
  readonly snapshot: readonly unknown[];
  readonly args: readonly unknown[];
  readonly value: T;
}

/** The env's own enumerable entries as one flat list: key, value, key, value, … */
function snapshotOf(env: Readonly<Record<string, unknown>>): unknown[] {
  const flat: unknown[] = [];
  for (const key of Object.keys(env)) flat.push(key, env[key]);
  return flat;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `compute`, remembered per env object while the env and the other arguments are unchanged. */
export function memoizeOnEnv<A extends unknown[], T>(
  compute: (env: Readonly<Record<string, unknown>>, ...args: A) => T,
): (env: Readonly<Record<string, unknown>>, ...args: A) => T {
  const cache = new WeakMap<object, Entry<T>>();
  return (env, ...args) => {
    const snapshot = snapshotOf(env);
    const hit = cache.get(env);
    if (hit !== undefined && sameList(hit.args, args) && sameList(hit.snapshot, snapshot)) {
      return hit.value;
    }
    const value = compute(env, ...args);
    if (typeof value === "object" && value !== null) Object.freeze(value);
    cache.set(env, { snapshot, args, value });
    return value;
  };
}

/**
 * Registry configuration (R7.6): a JSON file of entities; a `Memory` entity's `config`
 * takes exactly the MemoryConfig keys (snake_case, as in code, env and the management API).
 * It is the `registry` layer of MemoryConfig's precedence (code → env → registry → runtime).
 *
 *   {
 *     "version": 1,
 *     "entities": [
 *       { "kind": "Memory", "name": "default", "config": { "window_size": 30 } },
 *       { "kind": "Memory", "name": "support", "agents": ["support-bot"],
 *         "config": { "summarize": true, "summarize_threshold": 60 } }
 *     ]
 *   }
 *
 * - `agents` (optional) lists the AGENT_IDs an entity applies to. For an agent, the entity
 *   that lists its id wins; otherwise the one without `agents`; otherwise no registry layer.
 *   At most one entity may list a given id, and at most one may omit `agents` (checked when
 *   the file is loaded, so the choice is never ambiguous).
 * - Entities of other kinds (`Agent`, `Skill`, …) may share the file; llamon's memory
 *   ignores them. A kind that differs from `Memory` only by case is an error.
 * - Unknown keys, bad values and misspelt config keys are errors that name the place
 *   (`entities[1].config.window_size: must be a whole number >= 1, got 0`).
 */
import { z } from "zod";
import { isLlamonError, LlamonError } from "../errors.ts";
import type { MemoryConfigErrorDetails } from "../memory/config.ts";
import { type MemoryConfigPatch, parseMemoryConfigPatch } from "../memory/config.ts";
import { AGENT_ID_RE } from "../store/thread-key.ts";
import { addFieldError, type FieldErrors, zodFieldErrors } from "../zod-issues.ts";

export const REGISTRY_VERSION = 1;

const memoryEntitySchema = z.strictObject({
  kind: z.literal("Memory"),
  name: z.string().trim().min(1, "must not be empty").max(100),
  description: z.string().max(2000).optional(),
  agents: z
    .array(z.string().regex(AGENT_ID_RE, "must be an AGENT_ID (lowercase letters, digits, - _)"))
    .min(1, "list at least one AGENT_ID, or leave `agents` out to apply to every agent")
    .optional(),
  /** Validated separately with the MemoryConfig patch schema (better messages). */
  config: z.record(z.string(), z.unknown()),
});

const otherEntitySchema = z.looseObject({
  kind: z
    .string()
    .min(1)
    .refine((kind) => kind === "Memory" || kind.toLowerCase() !== "memory", {
      message: 'use "Memory" (the kind names are case-sensitive)',
    }),
});

const registryFileSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(REGISTRY_VERSION, { error: `must be ${REGISTRY_VERSION}` }),
  entities: z.array(z.unknown()),
});

export interface MemoryEntity {
  readonly name: string;
  readonly description?: string | undefined;
  /** undefined = applies to every agent without an entity of its own. */
  readonly agents?: readonly string[] | undefined;
  readonly config: MemoryConfigPatch;
}

/** A validated registry file: its Memory entities (other kinds are dropped). */
export interface Registry {
  readonly version: typeof REGISTRY_VERSION;
  readonly memory: readonly MemoryEntity[];
}

const add = addFieldError;

function addIssues(
  errors: FieldErrors,
  prefix: readonly PropertyKey[],
  issues: readonly z.core.$ZodIssue[],
) {
  for (const [field, lines] of Object.entries(zodFieldErrors(issues, { prefix }))) {
    for (const line of lines) add(errors, field, line);
  }
}

/**
 * Validates a registry file (a parsed JSON value, or its text). Throws
 * `LlamonError("CONFIG_INVALID")` with `details: { fieldErrors, source }`.
 */
export function loadRegistry(input: unknown, source = "registry"): Registry {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new LlamonError<MemoryConfigErrorDetails>(
        "CONFIG_INVALID",
        `Invalid registry (from ${source}): not JSON — ${(error as Error).message}`,
        { cause: error, details: { fieldErrors: { "(root)": ["not JSON"] }, source } },
      );
    }
  }
  const errors: FieldErrors = {};
  const file = registryFileSchema.safeParse(value);
  if (!file.success) {
    addIssues(errors, [], file.error.issues);
    throw registryError(errors, source);
  }
  const memory: MemoryEntity[] = [];
  file.data.entities.forEach((raw, index) => {
    const at = `entities[${index}]`;
    const atPath = ["entities", index];
    const kind = otherEntitySchema.safeParse(raw);
    if (!kind.success) {
      addIssues(errors, atPath, kind.error.issues);
      return;
    }
    if (kind.data.kind !== "Memory") return;
    const entity = memoryEntitySchema.safeParse(raw);
    if (!entity.success) {
      addIssues(errors, atPath, entity.error.issues);
      return;
    }
    try {
      const config = parseMemoryConfigPatch(entity.data.config, `${source} ${at}`);
      memory.push({
        name: entity.data.name,
        description: entity.data.description,
        agents: entity.data.agents,
        config,
      });
    } catch (error) {
      if (!isLlamonError(error, "CONFIG_INVALID")) throw error;
      const details = error.details as MemoryConfigErrorDetails;
      for (const [field, lines] of Object.entries(details.fieldErrors)) {
        for (const line of lines) add(errors, `${at}.config.${field}`, line);
      }
    }
  });
  checkUnambiguous(memory, errors);
  if (Object.keys(errors).length > 0) throw registryError(errors, source);
  return { version: REGISTRY_VERSION, memory };
}

function checkUnambiguous(memory: readonly MemoryEntity[], errors: FieldErrors): void {
  const defaults = memory.filter((entity) => entity.agents === undefined).map((e) => e.name);
  if (defaults.length > 1) {
    add(
      errors,
      "entities",
      `more than one Memory entity applies to every agent (${defaults.join(", ")}): give all but one an \`agents\` list`,
    );
  }
  const owner = new Map<string, string>();
  for (const entity of memory) {
    for (const agent of entity.agents ?? []) {
      const first = owner.get(agent);
      if (first !== undefined && first !== entity.name) {
        add(
          errors,
          "entities",
          `AGENT_ID "${agent}" is listed by two Memory entities ("${first}" and "${entity.name}")`,
        );
      }
      owner.set(agent, entity.name);
    }
  }
}

function registryError(errors: FieldErrors, source: string): LlamonError {
  const lines = Object.entries(errors).flatMap(([field, problems]) =>
    problems.map((problem) => `  - ${field}: ${problem}`),
  );
  return new LlamonError<MemoryConfigErrorDetails>(
    "CONFIG_INVALID",
    `Invalid registry (from ${source}):\n${lines.join("\n")}`,
    { details: { fieldErrors: errors, source } },
  );
}

/** The Memory entity that applies to `agentId` (see the file header), or undefined. */
export function memoryEntityFor(registry: Registry, agentId: string): MemoryEntity | undefined {
  return (
    registry.memory.find((entity) => entity.agents?.includes(agentId)) ??
    registry.memory.find((entity) => entity.agents === undefined)
  );
}

/** The registry layer of MemoryConfig for `agentId` ({} when no entity applies). */
export function registryLayerFor(
  registry: Registry | undefined,
  agentId: string,
): MemoryConfigPatch {
  if (registry === undefined) return {};
  return memoryEntityFor(registry, agentId)?.config ?? {};
}

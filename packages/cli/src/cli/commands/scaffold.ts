/**
 * `llamon agent <name>` and `llamon flow <name>`: create a Workers project from a template
 * (R9.1, R9.2). Memory is an option of every template (`--memory`), not a template.
 * Without `--yes`, missing choices are asked interactively; the memory choices offered are
 * off, in-memory and postgres — sqlite is accepted as a flag only (R1.2).
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { LlamonError } from "llamon/errors";
import { llamonRoot } from "../llamon-package.ts";
import { info, warn } from "../output.ts";
import { ask, choose, isInteractive } from "../prompt.ts";
import { createProject } from "../scaffold/create.ts";
import {
  checkProjectName,
  databaseName,
  defaultProjectName,
  projectNameProblem,
  retryProjectName,
} from "../scaffold/names.ts";
import {
  DEFAULT_MEMORY_MODE,
  findTemplate,
  INTERACTIVE_MEMORY_MODES,
  type MemoryMode,
  type ProjectKind,
  parseMemoryMode,
  templatesOf,
} from "../scaffold/templates.ts";

interface ScaffoldOptions {
  template?: string;
  memory?: MemoryMode;
  yes?: boolean;
  dir?: string;
  install: boolean;
  llamon?: string;
  llamonCli?: string;
}

const EXAMPLE_NAME: Record<ProjectKind, string> = { agent: "my-agent", flow: "my-flow" };

export function registerScaffold(program: Command): void {
  for (const kind of ["agent", "flow"] as const) {
    const templates = templatesOf(kind);
    const defaultTemplate = (templates[0] ?? { id: "" }).id;
    const example = EXAMPLE_NAME[kind];
    program
      .command(kind)
      .argument("[name]", "project name: Worker name, AGENT_ID and database <name>_memory")
      .description(
        kind === "agent"
          ? "create an agent project (Cloudflare Worker with A2A and multi-turn memory)"
          : "create a workflow project (a LangGraph flow with multi-turn memory)",
      )
      .option(
        "-t, --template <id>",
        `${templates.map((t) => t.id).join(" | ")} (default ${defaultTemplate})`,
      )
      .option(
        "-m, --memory <mode>",
        "off | in-memory | postgres (default postgres; sqlite: legacy, flag only)",
        parseMemoryMode,
      )
      .option("-y, --yes", "do not ask: take the defaults for anything not given")
      .option("--dir <path>", "folder to create (default ./<name>)")
      .option("--no-install", "do not run npm install afterwards")
      .option(
        "--llamon <spec>",
        "llamon dependency for package.json instead of a packed copy in vendor/ (e.g. ^0.1.0)",
      )
      .option(
        "--llamon-cli <spec>",
        "llamon-cli devDependency with --llamon (default: the same range, or file:<checkout>/packages/cli)",
      )
      .addHelpText(
        "after",
        `
Examples:
  $ npx llamon-cli ${kind} ${example} --template ${defaultTemplate} --memory postgres --yes
  $ npx llamon-cli ${kind} ${example} --template ${defaultTemplate} --memory in-memory --yes
  $ npx llamon-cli ${kind}            # asks for the name, template and memory mode

Templates:
${templates.map((t) => `  ${t.id.padEnd(14)} ${t.description}`).join("\n")}

Memory modes (--memory): postgres (production default, survives restarts), in-memory
(experiments, lost on restart), off (no memory); sqlite is legacy and only accepted as a flag.
The project gets package.json (llamon and llamon-cli packed into vendor/, so no registry needs
to have them; llamon-cli, the command line, only as a devDependency),
wrangler.toml, .dev.vars (AGENT_ID=<name>, and for postgres POSTGRES_MEMORY_DSN for the
database <name>_memory), .dev.vars.example, compose.yml (postgres), src/, test/ and a README.
Then:  cd ${example} && npx llamon run .`,
      )
      .action(async (name: string | undefined, opts: ScaffoldOptions) => {
        await scaffold(kind, name, opts);
      });
  }
}

async function scaffold(
  kind: ProjectKind,
  nameArg: string | undefined,
  opts: ScaffoldOptions,
): Promise<void> {
  const templates = templatesOf(kind);
  if (nameArg !== undefined) checkProjectName(nameArg);
  if (opts.template !== undefined) findTemplate(kind, opts.template);
  const missing = [
    nameArg === undefined ? "<name>" : undefined,
    opts.template === undefined ? "--template" : undefined,
    opts.memory === undefined ? "--memory" : undefined,
  ].filter((m): m is string => m !== undefined);
  const interactive = !opts.yes && missing.length > 0;
  if (interactive && !isInteractive()) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `not a terminal, so nothing can be asked: give ${missing.join(", ")} (or --yes to take the defaults)`,
    );
  }
  if (opts.yes && nameArg === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `give the project name: npx llamon-cli ${kind} ${EXAMPLE_NAME[kind]} --yes`,
    );
  }
  const name =
    nameArg ??
    (await ask(
      "Project name / 프로젝트 이름",
      defaultProjectName(
        EXAMPLE_NAME[kind],
        opts.dir === undefined ? undefined : basename(resolve(opts.dir)),
        (candidate) => folderIsFree(resolve(candidate)),
      ),
      projectNameProblem,
      retryProjectName,
    ));
  const templateId =
    opts.template ??
    (interactive && templates.length > 1
      ? await choose(
          "Template / 템플릿",
          templates.map((t) => ({ value: t.id, label: t.id, hint: t.description })),
        )
      : (templates[0] as { id: string }).id);
  const memory =
    opts.memory ??
    (interactive
      ? await choose(
          "Memory / 메모리",
          INTERACTIVE_MEMORY_MODES.map((m) => ({ value: m.mode, label: m.mode, hint: m.hint })),
        )
      : DEFAULT_MEMORY_MODE);
  if (memory === "sqlite") {
    warn(
      "note: sqlite is the legacy backend (kept for existing projects); new projects should use --memory postgres",
    );
  }
  const dir = resolve(opts.dir ?? name);
  const checkout = enclosingCheckout(dir);
  if (checkout !== undefined) {
    warn(
      `note: ${dir} is inside the llamon checkout ${checkout}, so git there will list it as untracked; create projects outside it (e.g. --dir ../${name}), or delete the folder when you are done`,
    );
  }
  const result = await createProject({
    name,
    kind,
    templateId,
    memory,
    dir,
    llamonSpec: opts.llamon,
    cliSpec: opts.llamonCli,
    install: opts.install,
    log: info,
  });
  const shown = relative(process.cwd(), dir) || ".";
  info("");
  info(`created ${name} (${templateId}, memory ${memory}) in ${shown}/`);
  for (const file of result.files) info(`  ${file}`);
  info("");
  info(`AGENT_ID=${name}`);
  if (result.spec.backend === "postgres") {
    info(
      `database: ${databaseName(name)} (POSTGRES_MEMORY_DSN in .dev.vars; compose.yml for containers)`,
    );
  }
  info("");
  info("next:");
  if (shown !== ".") info(`  cd ${shown}`);
  if (result.installed !== "yes") info("  npm install");
  info("  npx llamon run .");
}

/** The llamon git checkout that contains `dir` (this running llamon's), if any. */
export function enclosingCheckout(dir: string, root = llamonRoot()): string | undefined {
  if (!existsSync(join(root, ".git"))) return undefined; // an installed llamon, not a checkout
  const rel = relative(root, dir);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? root : undefined;
}

/** A folder a project can be created in: missing or empty (createProject's own rule). */
function folderIsFree(dir: string): boolean {
  try {
    return !existsSync(dir) || readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

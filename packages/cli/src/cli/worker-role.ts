/**
 * The Worker's database role of a local run: its name and generated password are kept in the
 * project's `.llamon/worker-role.json` (git-ignored, like the embedded data), the role is made
 * (or its password set) by the database's owner after the migrations, with only the Worker's
 * grants, and the Worker gets a connection string that names it. The local Neon proxy checks
 * that password and runs the Worker's statements as the role, as Neon does.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LlamonError } from "llamon/errors";
import { redactDsn } from "llamon/node";
import {
  ensureWorkerRole,
  newRoleCredentials,
  type RoleCredentials,
  roleCredentialsSchema,
  workerNeonDsn,
} from "../dev/worker-role.ts";

export function workerRoleFile(projectDir: string): string {
  return join(projectDir, ".llamon", "worker-role.json");
}

/** The project's role credentials, made and saved on first use. */
export async function projectRoleCredentials(projectDir: string): Promise<RoleCredentials> {
  const file = workerRoleFile(projectDir);
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text === undefined) {
    const creds = newRoleCredentials();
    await mkdir(dirname(file), { recursive: true });
    // Written whole beside it, then linked into place (which fails if the file is there): two
    // runs of one project starting together agree on the first one's role.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await writeFile(draft, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
    try {
      await link(draft, file);
      return creds;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      text = await readFile(file, "utf8");
    } finally {
      await unlink(draft).catch(() => {});
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = roleCredentialsSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `${file} is not a role llamon made ({"role", "password"}): delete it, and the next run makes a new role`,
    );
  }
  return parsed.data;
}

/**
 * Makes the project's role in the database at `ownerDsn` (migrated already) and returns the
 * connection string the Worker sends to the local Neon proxy.
 */
export async function provideWorkerRole(options: {
  projectDir: string;
  ownerDsn: string;
}): Promise<{ role: string; neonDsn: string }> {
  const creds = await projectRoleCredentials(options.projectDir);
  try {
    await ensureWorkerRole(options.ownerDsn, creds);
  } catch (error) {
    if ((error as { code?: string }).code === "42501") {
      throw new LlamonError(
        "CONFIG_INVALID",
        `the user of ${redactDsn(options.ownerDsn)} may not create roles: llamon run makes a role for the Worker (${creds.role}) with only the privileges it needs, as on Neon. Use a DSN of a superuser or of a user WITH CREATEROLE, or --embedded`,
        { cause: error },
      );
    }
    throw error;
  }
  return { role: creds.role, neonDsn: workerNeonDsn(options.ownerDsn, creds) };
}

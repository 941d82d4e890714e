/** Connection strings in messages and logs: never show a password. */

/** The DSN for messages: password (in userinfo or ?password=) replaced by "****". */
export function redactDsn(dsn: string): string {
  try {
    const url = new URL(dsn);
    if (url.password !== "") url.password = "****";
    if (url.searchParams.has("password")) url.searchParams.set("password", "****");
    return url.toString();
  } catch {
    return dsn.replace(/(password\s*=\s*)('[^']*'|\S+)/gi, "$1****");
  }
}

/** Blank out passwords of any connection string quoted inside free text (driver messages). */
export function redactSecrets(text: string): string {
  return text.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*:)\S*@/gi, "$1****@");
}

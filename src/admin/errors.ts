/** HTTP answers of the management API that are not LlamonErrors (not found, not available). */
import type { ContentfulStatusCode } from "hono/utils/http-status";

export class AdminHttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AdminHttpError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function notFound(message: string): AdminHttpError {
  return new AdminHttpError(404, "NOT_FOUND", message);
}

export function notAvailable(message: string): AdminHttpError {
  return new AdminHttpError(501, "NOT_AVAILABLE", message);
}

export function badRequest(
  message: string,
  fieldErrors: Record<string, string[]> = {},
): AdminHttpError {
  return new AdminHttpError(400, "INPUT_INVALID", message, { fieldErrors });
}

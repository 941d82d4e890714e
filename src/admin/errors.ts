/** The management API's usual errors, as LlamonErrors (statuses: runtime/errors.ts). */
import { LlamonError } from "../errors.ts";

export function notFound(message: string): LlamonError {
  return new LlamonError("NOT_FOUND", message);
}

export function notAvailable(message: string): LlamonError {
  return new LlamonError("NOT_AVAILABLE", message);
}

/** 400 with every problem, per field. */
export function badRequest(
  message: string,
  fieldErrors: Record<string, string[]> = {},
): LlamonError<{ fieldErrors: Record<string, string[]> }> {
  return new LlamonError("INPUT_INVALID", message, { details: { fieldErrors } });
}

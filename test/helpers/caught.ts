/**
 * What a promise rejects with, for assertions on the error itself. No imports, so the Node and
 * the workerd tests share it.
 */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

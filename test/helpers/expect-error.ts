import { GitBookAPIError } from '@gitbook/api';

/** The status and message of a call the official client rejects; fails when the call succeeds. */
export async function failure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GitBookAPIError) return { code: error.code, message: error.errorMessage };
    throw error;
  }
  throw new Error('expected the call to fail');
}

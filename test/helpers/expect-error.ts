import { GitBookAPIError } from '@gitbook/api';
import { GitBookAPIError as GitBookAPIError146 } from 'gitbook-api-0146';

/** The status and message of a call the official client rejects; fails when the call succeeds. */
export async function failure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    // Either client: 0.146's operations (conversations) exist only in its own.
    if (error instanceof GitBookAPIError || error instanceof GitBookAPIError146)
      return { code: error.code, message: error.errorMessage };
    throw error;
  }
  throw new Error('expected the call to fail');
}

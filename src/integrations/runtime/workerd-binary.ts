import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Where the workerd binary is, or why there is none on this machine. */
export type WorkerdBinary = { path: string; compatibilityDate: string } | { missing: string };

/**
 * The workerd binary the `workerd` npm package carries (in a platform package such as
 * `@cloudflare/workerd-linux-64`). On a platform it does not cover, the package throws when
 * loaded: integrations are then stored and installed, but their scripts do not run, and
 * whoever asks is told why.
 */
export function findWorkerd(): WorkerdBinary {
  try {
    // Required, not imported: the package is CommonJS without types, and what an ESM import makes
    // of its exports differs between Node and the test runner.
    const workerd = createRequire(import.meta.url)('workerd') as {
      default: string;
      compatibilityDate: string;
    };
    if (!existsSync(workerd.default)) {
      return { missing: `the workerd binary is not installed (${workerd.default})` };
    }
    return { path: workerd.default, compatibilityDate: workerd.compatibilityDate };
  } catch (error) {
    return { missing: `workerd cannot run on this machine: ${(error as Error).message}` };
  }
}

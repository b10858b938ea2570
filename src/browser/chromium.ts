import { existsSync } from 'node:fs';

/**
 * Where a headless Chromium is: `QUIRE_CHROMIUM_PATH`, else the system's (Debian's
 * `/usr/bin/chromium`), else the one the `@sparticuz/chromium` npm package carries (unpacked
 * into the temporary directory on first use), so a fresh `npm install` has a browser without
 * any system package.
 */
export interface ChromiumLaunch {
  executablePath: string;
  args: string[];
}

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Flags for a browser with no business on the network beyond the pages it is sent to. */
const QUIET = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Which Chromium `findChromium` would use, without unpacking anything: a path, `packaged` for
 * the npm package's (Linux only), or undefined when there is none (or QUIRE_CHROMIUM_PATH is
 * `none`). A configured path that does not exist is an error that says so.
 */
export function chromiumSource(configured: string | undefined): string | undefined {
  if (configured === 'none') return undefined;
  if (configured) {
    if (!existsSync(configured))
      throw new Error(
        `QUIRE_CHROMIUM_PATH is ${configured}, which does not exist; point it at a Chromium binary, or set it to none`,
      );
    return configured;
  }
  return SYSTEM_PATHS.find((p) => existsSync(p)) ?? (process.platform === 'linux' ? 'packaged' : undefined);
}

export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumLaunch> {
  const configured = env.QUIRE_CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured))
      throw new Error(
        `QUIRE_CHROMIUM_PATH is ${configured}, which does not exist; point it at a Chromium binary`,
      );
    return { executablePath: configured, args: QUIET };
  }
  const system = SYSTEM_PATHS.find((p) => existsSync(p));
  if (system) return { executablePath: system, args: QUIET };
  const packaged = (await import('@sparticuz/chromium')).default;
  const executablePath = await packaged.executablePath();
  // Its own flag list is tuned for AWS Lambda (one process, no web security): not taken.
  return { executablePath, args: QUIET };
}

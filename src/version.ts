import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageFile = fileURLToPath(new URL('../package.json', import.meta.url));

/** The running release: package version, and when this build was made. */
export const VERSION: string = (JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string }).version;
export const BUILD: string = statSync(fileURLToPath(import.meta.url)).mtime.toISOString();

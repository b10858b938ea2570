import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface PublishRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The CLI's home (settings, and the bundle it built under `.gitbook/<name>/script.js`). */
  home: string;
  cleanup(): void;
}

/**
 * `gitbook publish <manifest> --organization <org>` with the official CLI as a separate process,
 * pointed at a Quire server by GITBOOK_ENDPOINT and GITBOOK_TOKEN, as its README says.
 */
export async function gitbookPublish(options: {
  manifest: string;
  organization: string;
  token: string;
  endpoint: string;
}): Promise<PublishRun> {
  const home = mkdtempSync(path.join(tmpdir(), 'quire-gitbook-cli-'));
  const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/@gitbook/cli/cli.js'),
        'publish',
        options.manifest,
        '--organization',
        options.organization,
      ],
      {
        cwd: path.dirname(options.manifest),
        timeout: 120_000,
        // The CLI keeps its settings under HOME and writes the bundle under the temporary
        // directory: both are this run's own.
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          XDG_CONFIG_HOME: home,
          TMPDIR: home,
          GITBOOK_TOKEN: options.token,
          GITBOOK_ENDPOINT: options.endpoint,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  return { ...run, home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

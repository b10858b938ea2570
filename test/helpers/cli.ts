import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newId } from '../../src/ids.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST_MAIN = path.join(ROOT, 'dist/main.js');

/** The newest modification time of any file under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

let built: Promise<void> | undefined;

/** How long `npm run build` may take, when dist/ is older than src/. */
const BUILD_MS = 300_000;
/**
 * The timeout of a hook that starts the CLI: it may first rebuild dist/ (once per test worker),
 * which beside two other test files takes longer than the suite's hook timeout.
 */
export const CLI_HOOK_MS = BUILD_MS + 120_000;

const fresh = () => existsSync(DIST_MAIN) && statSync(DIST_MAIN).mtimeMs >= newest(path.join(ROOT, 'src'));

/** Held by the test worker rebuilding dist/: a directory, made or not in one step. */
const BUILD_LOCK = path.join(ROOT, 'node_modules/.quire-test-build');

/**
 * The CLI is run as `npm start` runs it, from dist/ (built by `npm install`), so a run costs the
 * start of a built program rather than a compile of the sources. When a source file is newer than
 * the build, dist/ is rebuilt first, by one test worker while the others wait for it: two workers
 * rebuilding at once, one started a server from the other's half-written dist/ (an import of an
 * export not written yet).
 */
export function builtCli(): Promise<void> {
  built ??= (async () => {
    for (;;) {
      // Not while another worker builds: its dist/main.js may be written before the rest.
      if (!existsSync(BUILD_LOCK) && fresh()) return;
      try {
        mkdirSync(BUILD_LOCK);
      } catch {
        // Another worker builds; a lock older than a build is left from a killed run.
        const held = statSync(BUILD_LOCK, { throwIfNoEntry: false });
        if (held && Date.now() - held.mtimeMs > BUILD_MS)
          rmSync(BUILD_LOCK, { recursive: true, force: true });
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      try {
        if (!fresh()) await build();
      } finally {
        rmSync(BUILD_LOCK, { recursive: true, force: true });
      }
      return;
    }
  })();
  return built;
}

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', 'build'], { cwd: ROOT, timeout: BUILD_MS }, (error, stdout, stderr) => {
      if (!error) return resolve();
      // tsc writes its output even when another file does not type-check: run on that build, and
      // leave type errors to `npm run typecheck`. A build that wrote nothing is a failure.
      if (fresh()) {
        process.stderr.write(
          `npm run build reported errors; the CLI tests run on what it wrote:\n${stdout}\n`,
        );
        return resolve();
      }
      reject(new Error(`dist/ is older than src/ and \`npm run build\` failed:\n${stdout}\n${stderr}`));
    });
  });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `quire <args>` (the built CLI) as a separate process. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  await builtCli();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DIST_MAIN, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface CliServer {
  url: string;
  output: string[];
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `quire serve` (the built CLI) and waits for it to listen and print its banner. */
export async function startCliServer(env: Record<string, string>): Promise<CliServer> {
  await builtCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIST_MAIN, 'serve'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    const output: string[] = [];
    let buffer = '';
    let url: string | undefined;
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        url ??= /^Quire \S+ is listening on (\S+)/.exec(line)?.[1];
        // The banner ends with this line; the JSON logs follow it.
        if (url && line.startsWith('Logs follow')) {
          resolve({
            url,
            output,
            process: child,
            stop: () => stopChild(child, output),
          });
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`quire serve exited with ${code}:\n${output.join('\n')}${buffer}`)),
    );
  });
}

/**
 * SIGTERM, then wait for the exit. A server that is already gone resolves at once; one that has
 * not exited well after its own shutdown grace is killed, and the test fails with its last words.
 */
function stopChild(child: ChildProcess, output: string[]): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `quire serve did not exit 30 s after SIGTERM; its last lines:\n${output.slice(-30).join('\n')}`,
        ),
      );
    }, 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface IsolatedStore {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * A store of its own for CLI runs: a temporary QUIRE_DATA_DIR (SQLite), or, when the suite runs on
 * PostgreSQL, a fresh schema selected through the connection string.
 */
/** `base` null forces SQLite whatever DATABASE_URL says. */
export async function isolatedStore(
  base: string | null | undefined = process.env.DATABASE_URL,
): Promise<IsolatedStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-store-'));
  if (!base) {
    return {
      env: { QUIRE_DATA_DIR: dataDir },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `cli_${newId(12).toLowerCase()}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { QUIRE_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    cleanup: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

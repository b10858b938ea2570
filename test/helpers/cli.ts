import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newId } from '../../src/ids.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = ['--import', 'tsx', path.join(ROOT, 'src/main.ts')];

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `quire <args>` from source, as a separate process. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...ENTRY, ...args],
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

/** Starts `quire serve` and waits for it to listen. */
export function startCliServer(env: Record<string, string>): Promise<CliServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...ENTRY, 'serve'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    const output: string[] = [];
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        const match = /Quire is listening on (\S+)/.exec(line);
        if (match) {
          resolve({
            url: match[1]!,
            output,
            process: child,
            stop: () =>
              new Promise((done) => {
                child.once('exit', () => done());
                child.kill('SIGTERM');
              }),
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

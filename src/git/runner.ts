import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import type { CheckedUrl } from '../http/outbound.js';
import { type Credentials, credentialEnv, redact } from './credentials.js';

/**
 * Running the system `git` for one sync: a temporary repository under the data directory
 * (removed afterwards), a clean environment (no user or system configuration, no prompts, no
 * hooks), every command under a timeout. Remote commands are pinned to the addresses the
 * outbound guard checked (`http.curloptResolve`) and follow no redirects, so git cannot be
 * steered to another host than the one allowed; only http(s) transports are enabled.
 */

export type GitFailure = 'auth' | 'not-found' | 'unknown-ref' | 'network' | 'timeout' | 'rejected' | 'git';

export class GitError extends Error {
  constructor(
    readonly kind: GitFailure,
    message: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface Remote {
  checked: CheckedUrl;
  credentials?: Credentials | undefined;
}

const MAX_OUTPUT = 64 * 1024 * 1024;

export class GitWorkspace {
  private constructor(
    readonly dir: string,
    private readonly timeoutMs: number,
  ) {}

  static async create(dataDir: string, timeoutMs: number): Promise<GitWorkspace> {
    const parent = path.join(dataDir, 'git-work');
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    const dir = mkdtempSync(path.join(parent, 'sync-'));
    const workspace = new GitWorkspace(dir, timeoutMs);
    await workspace.git(['init', '-q', '-b', 'quire', 'repo']);
    return workspace;
  }

  get repo(): string {
    return path.join(this.dir, 'repo');
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.dir,
      LANG: 'C',
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Quire',
      GIT_AUTHOR_EMAIL: 'quire@localhost',
      GIT_COMMITTER_NAME: 'Quire',
      GIT_COMMITTER_EMAIL: 'quire@localhost',
      ...extra,
    };
  }

  /** Runs git in the repository (or the workspace for `init`); answers stdout. */
  git(
    args: string[],
    options: { env?: Record<string, string>; input?: string; secrets?: Credentials; buffer?: boolean } = {},
  ): Promise<string> {
    return this.exec(args, options).then((out) => out.toString('utf8'));
  }

  gitBuffer(args: string[]): Promise<Buffer> {
    return this.exec(args, {});
  }

  private exec(
    args: string[],
    options: { env?: Record<string, string>; input?: string; secrets?: Credentials },
  ): Promise<Buffer> {
    const cwd = args[0] === 'init' ? this.dir : this.repo;
    const full = ['-c', 'core.hooksPath=/dev/null', '-c', 'credential.helper=', ...args];
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        full,
        {
          cwd,
          env: this.env(options.env),
          timeout: this.timeoutMs,
          maxBuffer: MAX_OUTPUT,
          encoding: 'buffer',
          killSignal: 'SIGKILL',
        },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const text = redact(stderr.toString('utf8').trim(), options.secrets);
          if ((error as NodeJS.ErrnoException & { killed?: boolean }).killed)
            return reject(
              new GitError('timeout', `git ${args[0]} did not finish within ${this.timeoutMs / 1000} s`),
            );
          reject(classify(args[0]!, text, (error as { code?: unknown }).code));
        },
      );
      if (options.input !== undefined) child.stdin?.end(options.input);
    });
  }

  /**
   * The bytes of many blobs through one `git cat-file --batch` (one process, not one per blob);
   * answers them by oid. Output is bounded by `maxBytes` all together.
   */
  readBlobs(oids: string[], maxBytes: number): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    if (oids.length === 0) return Promise.resolve(out);
    return new Promise((resolve, reject) => {
      const child = spawn('git', ['-c', 'core.hooksPath=/dev/null', 'cat-file', '--batch'], {
        cwd: this.repo,
        env: this.env(),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), this.timeoutMs);
      const chunks: Buffer[] = [];
      let total = 0;
      let stderr = '';
      let failed: Error | undefined;
      child.stdout.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes + oids.length * 64) {
          failed ??= new GitError('git', `the blobs are larger than ${maxBytes} bytes all together`);
          child.kill('SIGKILL');
          return;
        }
        chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-2000);
      });
      child.on('error', (error) => {
        failed ??= error;
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (failed) return reject(failed);
        if (signal === 'SIGKILL')
          return reject(
            new GitError('timeout', `git cat-file did not finish within ${this.timeoutMs / 1000} s`),
          );
        if (code !== 0) return reject(classify('cat-file', stderr.trim(), code));
        const data = Buffer.concat(chunks);
        let at = 0;
        while (at < data.length) {
          const eol = data.indexOf(10, at);
          if (eol < 0) break;
          const [oid, type, size] = data.subarray(at, eol).toString('utf8').split(' ');
          if (type !== 'blob' || size === undefined)
            return reject(new GitError('git', `git cat-file: ${data.subarray(at, eol).toString('utf8')}`));
          const start = eol + 1;
          const end = start + Number(size);
          out.set(oid!, data.subarray(start, end));
          at = end + 1;
        }
        resolve(out);
      });
      child.stdin.on('error', () => {
        // the process ended early; its exit reports why
      });
      child.stdin.end(`${oids.join('\n')}\n`);
    });
  }

  /** Options and environment for a command talking to the remote. */
  remoteArgs(remote: Remote): { args: string[]; env: Record<string, string> } {
    const { url, addresses } = remote.checked;
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const pinned = addresses.map((a) => (isIPv6(a) ? `[${a}]` : a)).join(',');
    return {
      args: [
        '-c',
        'protocol.allow=never',
        '-c',
        'protocol.http.allow=always',
        '-c',
        'protocol.https.allow=always',
        '-c',
        'http.followRedirects=false',
        '-c',
        `http.curloptResolve=${host}:${port}:${pinned}`,
        '-c',
        'http.lowSpeedLimit=1000',
        '-c',
        'http.lowSpeedTime=30',
      ],
      env: credentialEnv(remote.credentials),
    };
  }

  /** The commit `ref` points at on the remote; undefined when the remote has no such branch. */
  async lsRemote(remote: Remote, ref: string): Promise<string | undefined> {
    const { args, env } = this.remoteArgs(remote);
    const out = await this.git([...args, 'ls-remote', '--', remote.checked.url.toString(), ref], {
      env,
      ...(remote.credentials ? { secrets: remote.credentials } : {}),
    });
    const line = out.split('\n').find((l) => l.endsWith(`\t${ref}`));
    return line?.split('\t')[0];
  }

  /** Fetches `ref` into `refs/quire/remote`; answers its commit. */
  async fetch(remote: Remote, ref: string): Promise<string> {
    const { args, env } = this.remoteArgs(remote);
    await this.git(
      [
        ...args,
        'fetch',
        '-q',
        '--no-tags',
        '--no-recurse-submodules',
        '--',
        remote.checked.url.toString(),
        `+${ref}:refs/quire/remote`,
      ],
      { env, ...(remote.credentials ? { secrets: remote.credentials } : {}) },
    );
    return (await this.git(['rev-parse', 'refs/quire/remote'])).trim();
  }

  async push(remote: Remote, commit: string, ref: string, force: boolean): Promise<void> {
    const { args, env } = this.remoteArgs(remote);
    await this.git(
      [
        ...args,
        'push',
        '-q',
        ...(force ? ['--force'] : []),
        '--',
        remote.checked.url.toString(),
        `${commit}:${ref}`,
      ],
      { env, ...(remote.credentials ? { secrets: remote.credentials } : {}) },
    );
  }
}

function classify(command: string, stderr: string, code: unknown): GitError {
  const text = stderr.replace(/\s+/g, ' ');
  if (
    /Authentication failed|could not read (Username|Password)|terminal prompts disabled|401|403 Forbidden|returned error: 403/i.test(
      text,
    )
  )
    return new GitError(
      'auth',
      'the repository refused the credentials; check the user name and token in the URL',
    );
  if (/couldn't find remote ref|invalid refspec/i.test(text))
    return new GitError('unknown-ref', 'the repository has no such branch');
  if (/not found|returned error: 404|does not appear to be a git repository/i.test(text))
    return new GitError('not-found', 'no git repository answers at this URL; check the URL');
  if (
    /Could not resolve|Failed to connect|Connection refused|timed out|Operation too slow|SSL|Empty reply/i.test(
      text,
    )
  )
    return new GitError('network', `the repository could not be reached (${text.slice(0, 200)})`);
  if (/\[rejected\]|non-fast-forward|fetch first/i.test(text))
    return new GitError('rejected', 'the branch moved on the remote while exporting; try again');
  return new GitError('git', `git ${command} failed (exit ${String(code)}): ${text.slice(0, 300)}`);
}

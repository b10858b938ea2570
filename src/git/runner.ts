import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import type { CheckedUrl } from '../http/outbound.js';
import { type Credentials, credentialEnv, redact } from './credentials.js';
import { GitError } from './errors.js';
import { ObjectReader } from './object-reader.js';

/**
 * Running the system `git` for one sync: in the remote's cache repository under the data
 * directory (see cache.ts), or in a temporary repository (removed afterwards); a clean
 * environment (no user or system configuration, no prompts, no hooks), every command under a
 * timeout. Remote commands are pinned to the addresses the
 * outbound guard checked (`http.curloptResolve`) and follow no redirects, so git cannot be
 * steered to another host than the one allowed; only http(s) transports are enabled.
 */

export { GitError, type GitFailure } from './errors.js';

export interface Remote {
  checked: CheckedUrl;
  credentials?: Credentials | undefined;
}

const MAX_OUTPUT = 64 * 1024 * 1024;

/** Where a workspace's repository is, and what happens to it when the sync is done. */
interface Layout {
  /** Where commands run: a bare cache repository, or a checkout. */
  repo: string;
  /** Where fetched objects go: a cache repository, or `repo` itself. */
  store: string;
  /** An empty directory of ours, as HOME. */
  home: string;
  dispose(): void;
}

export class GitWorkspace {
  /**
   * Set before an irreversible step (a push): a failure after it is reported as it is, never
   * retried in a fresh repository.
   */
  committed = false;
  private readonly readers = new Map<string, ObjectReader>();

  private constructor(
    private readonly layout: Layout,
    private readonly timeoutMs: number,
  ) {}

  /** A temporary repository with a checkout, under the data directory, removed by `dispose`. */
  static async create(dataDir: string, timeoutMs: number, alternate?: string): Promise<GitWorkspace> {
    const parent = path.join(dataDir, 'git-work');
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    const dir = mkdtempSync(path.join(parent, 'sync-'));
    const repo = path.join(dir, 'repo');
    const workspace = new GitWorkspace(
      {
        repo,
        store: alternate ?? repo,
        home: dir,
        dispose: () => rmSync(dir, { recursive: true, force: true }),
      },
      timeoutMs,
    );
    try {
      await workspace.exec(['init', '-q', '--template=', '-b', 'quire', 'repo'], { cwd: dir });
      // Objects of the cache are read from there, not copied (git's alternates).
      if (alternate)
        writeFileSync(
          path.join(repo, '.git', 'objects', 'info', 'alternates'),
          `${path.join(alternate, 'objects')}\n`,
        );
    } catch (error) {
      workspace.dispose();
      throw error;
    }
    return workspace;
  }

  /** The bare cache repository `dir` itself (made by the cache, which holds its lock). */
  static inCache(dir: string, home: string, timeoutMs: number): GitWorkspace {
    return new GitWorkspace({ repo: dir, store: dir, home, dispose: () => {} }, timeoutMs);
  }

  /** Where commands run (for a checkout: the top of its working tree). */
  get repo(): string {
    return this.layout.repo;
  }

  dispose(): void {
    for (const reader of this.readers.values()) reader.close();
    this.readers.clear();
    this.layout.dispose();
  }

  private env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.layout.home,
      // Never a repository above ours (a damaged cache must not lead git to the data
      // directory's parents).
      GIT_CEILING_DIRECTORIES: path.dirname(this.layout.repo),
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

  /** Runs git in the repository; answers stdout. */
  git(
    args: string[],
    options: { env?: Record<string, string>; input?: string; secrets?: Credentials } = {},
  ): Promise<string> {
    return this.exec(args, options).then((out) => out.toString('utf8'));
  }

  gitBuffer(args: string[]): Promise<Buffer> {
    return this.exec(args, {});
  }

  private exec(
    args: string[],
    options: { env?: Record<string, string>; input?: string; secrets?: Credentials; cwd?: string },
  ): Promise<Buffer> {
    const command = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c') ?? 'git';
    const full = ['-c', 'core.hooksPath=/dev/null', '-c', 'credential.helper=', ...args];
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        full,
        {
          cwd: options.cwd ?? this.repo,
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
              new GitError('timeout', `git ${command} did not finish within ${this.timeoutMs / 1000} s`),
            );
          reject(classify(command, text, (error as { code?: unknown }).code));
        },
      );
      if (options.input !== undefined) child.stdin?.end(options.input);
    });
  }

  /**
   * The bytes of many blobs through one `git cat-file --batch` (one process, not one per blob);
   * answers them by oid. Output is bounded by `maxBytes` all together.
   */
  async readBlobs(oids: string[], maxBytes: number): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    for (const object of await this.reader(this.repo).read(oids, 'blob', maxBytes))
      out.set(object.oid, object.data);
    return out;
  }

  /** A commit (any revision naming one) and its message, through one `git cat-file`. */
  private async readCommit(rev: string, cwd: string): Promise<{ oid: string; message: string }> {
    const [object] = await this.reader(cwd).read([rev], 'commit', 16 * 1024 * 1024);
    const raw = object!.data.toString('utf8');
    const end = raw.indexOf('\n\n');
    const headers = end < 0 ? raw : raw.slice(0, end);
    // A message in another encoding than UTF-8 (rare, old tools): git converts it.
    if (/^encoding (?!utf-?8$)/im.test(headers)) {
      const message = await this.exec(['log', '-1', '--format=%B', object!.oid], { cwd });
      return { oid: object!.oid, message: message.toString('utf8').trim() };
    }
    return { oid: object!.oid, message: end < 0 ? '' : raw.slice(end + 2).trim() };
  }

  /** The workspace's `git cat-file` process for reads in `cwd` (started at the first read). */
  private reader(cwd: string): ObjectReader {
    let reader = this.readers.get(cwd);
    if (!reader) {
      reader = new ObjectReader(cwd, this.env(), this.timeoutMs);
      this.readers.set(cwd, reader);
    }
    return reader;
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

  /**
   * Fetches `ref` into `refs/quire/<ref without refs/>` of the object store (the cache, where
   * what was fetched before is kept: only new objects are downloaded); answers that local ref.
   */
  async fetch(remote: Remote, ref: string): Promise<string> {
    const { args, env } = this.remoteArgs(remote);
    const local = trackingRef(ref);
    const secrets = remote.credentials ? { secrets: remote.credentials } : {};
    // The reader of the commit started while the network is waited for: starting a process
    // from a large server blocks it for milliseconds. (git finds objects fetched after it
    // started: a lookup that misses looks for new packs.)
    this.reader(this.layout.store).warm();
    await this.exec(
      [
        ...args,
        // No maintenance behind our back: the cache runs it itself while it holds its lock.
        '-c',
        'gc.auto=0',
        '-c',
        'maintenance.auto=false',
        'fetch',
        '-q',
        '--no-tags',
        '--no-recurse-submodules',
        '--',
        remote.checked.url.toString(),
        `+${ref}:${local}`,
      ],
      { env, cwd: this.layout.store, ...secrets },
    );
    return local;
  }

  /** The commit a ref of `fetch` points at, and its message. */
  fetched(local: string): Promise<{ oid: string; message: string }> {
    return this.readCommit(`${local}^{commit}`, this.layout.store);
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

/** Where the cache keeps a fetched branch: `refs/heads/main` -> `refs/quire/heads/main`. */
export function trackingRef(ref: string): string {
  return `refs/quire/${ref.replace(/^refs\//, '')}`;
}

/**
 * What a failed git command's stderr says, as a GitError. A status is matched only where git
 * reports one: a bare "401" also matched the port of a URL (127.0.0.1:40123) in a message saying
 * the repository was not found.
 */
export function classify(command: string, stderr: string, code: unknown): GitError {
  const text = stderr.replace(/\s+/g, ' ');
  if (
    /Authentication failed|could not read (Username|Password)|terminal prompts disabled|returned error: 40[13]\b|403 Forbidden/i.test(
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

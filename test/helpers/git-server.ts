import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real git smart-HTTP server on loopback: `git http-backend` run as a CGI behind a small
 * node:http server with basic authentication. Repositories are bare repositories under a
 * temporary directory; `seed` commits a tree of files to a branch from a scratch clone.
 */
export interface GitServer {
  url: string;
  user: string;
  password: string;
  /**
   * The requests the server received (to check what clients sent), with the bytes of each
   * answer's body (to check what a fetch transferred; set when the answer ends).
   */
  requests: Array<{ method: string; path: string; authorized: boolean; bytes: number }>;
  createRepo(name: string): string;
  /** URL of a repository, with credentials unless `auth` is false. */
  repoUrl(name: string, auth?: boolean | { user: string; password: string }): string;
  /** Commits `files` (path -> content; null deletes) on `branch`; answers the commit. */
  commit(
    name: string,
    branch: string,
    files: Record<string, string | Buffer | null>,
    message?: string,
  ): string;
  /** Runs git in a fresh clone of the repository at `branch` (for checks). */
  git(name: string, args: string[]): string;
  close(): Promise<void>;
}

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Tester',
  GIT_AUTHOR_EMAIL: 'tester@example.com',
  GIT_COMMITTER_NAME: 'Tester',
  GIT_COMMITTER_EMAIL: 'tester@example.com',
};

function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export async function startGitServer(options: { user?: string; password?: string } = {}): Promise<GitServer> {
  const user = options.user ?? 'git-user';
  const password = options.password ?? 's3cret-t0ken';
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-git-server-'));
  const root = path.join(dir, 'repos');
  mkdirSync(root);
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const requests: GitServer['requests'] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const authorized = req.headers.authorization === expected;
    const record = { method: req.method ?? 'GET', path: url.pathname, authorized, bytes: 0 };
    requests.push(record);
    if (!authorized) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      res.end('authentication required');
      return;
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        record.bytes += chunk.length;
        return void res.write(chunk);
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      record.bytes += head.length - end - 4;
      res.write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => res.end());
    child.on('error', () => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  const clone = (name: string, branch: string): string => {
    const work = mkdtempSync(path.join(dir, 'work-'));
    git(work, ['init', '-q', '-b', branch]);
    git(work, ['fetch', '-q', path.join(root, `${name}.git`), `+refs/heads/*:refs/remotes/origin/*`]);
    try {
      git(work, ['checkout', '-q', '-B', branch, `origin/${branch}`]);
    } catch {
      // A new branch.
    }
    return work;
  };

  return {
    url: base,
    user,
    password,
    requests,
    createRepo(name) {
      const repo = path.join(root, `${name}.git`);
      git(root, ['init', '-q', '--bare', '-b', 'main', repo]);
      git(repo, ['config', 'http.receivepack', 'true']);
      return repo;
    },
    repoUrl(name, auth = true) {
      if (auth === false) return `${base}/${name}.git`;
      const creds = auth === true ? { user, password } : auth;
      return `http://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${name}.git`;
    },
    commit(name, branch, files, message = 'Update') {
      const work = clone(name, branch);
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(work, file);
        if (content === null) rmSync(target, { force: true });
        else {
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, content);
        }
      }
      git(work, ['add', '-A']);
      git(work, ['commit', '-q', '--allow-empty', '-m', message]);
      git(work, ['push', '-q', path.join(root, `${name}.git`), `HEAD:refs/heads/${branch}`]);
      const oid = git(work, ['rev-parse', 'HEAD']).trim();
      rmSync(work, { recursive: true, force: true });
      return oid;
    },
    git(name, args) {
      const repo = path.join(root, `${name}.git`);
      return git(repo, args);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

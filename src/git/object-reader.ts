import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { GitError } from './errors.js';

export interface GitObject {
  oid: string;
  data: Buffer;
}

interface Request {
  names: string[];
  expected: 'blob' | 'commit';
  maxBytes: number;
  bytes: number;
  objects: GitObject[];
  resolve(objects: GitObject[]): void;
  reject(error: Error): void;
}

/**
 * One `git cat-file --batch` process for all the reads of a sync (the commit, then the blobs):
 * starting a process from a large server costs more than the reads themselves. Requests are
 * answered in turn; objects stream through without being copied more than once. A failure
 * (a missing object, a damaged repository, the time limit) ends the process and fails every
 * request waiting; the next request starts another.
 */
export class ObjectReader {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly queue: Request[] = [];
  private timer: NodeJS.Timeout | undefined;
  // The object being read: its header, then `remaining` bytes of body and its newline.
  private header = Buffer.alloc(0);
  private current: { oid: string; size: number; chunks: Buffer[]; remaining: number } | undefined;
  private stderr = '';
  private closed = false;

  constructor(
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
  ) {}

  /** The objects named (oids, or revisions), in that order; all of type `expected`, at most `maxBytes` together. */
  read(names: string[], expected: 'blob' | 'commit', maxBytes: number): Promise<GitObject[]> {
    if (names.length === 0) return Promise.resolve([]);
    if (this.closed) return Promise.reject(new GitError('git', 'the object reader is closed'));
    if (names.some((n) => /[\n\r]/.test(n)))
      return Promise.reject(new GitError('git', 'object names cannot hold line breaks'));
    return new Promise((resolve, reject) => {
      const child = this.start();
      this.queue.push({ names, expected, maxBytes, bytes: 0, objects: [], resolve, reject });
      this.arm();
      child.stdin.write(`${names.join('\n')}\n`);
    });
  }

  /** Starts the process ahead of the first read (while something else is waited for). */
  warm(): void {
    if (!this.closed) this.start();
  }

  close(): void {
    this.closed = true;
    this.stop(undefined);
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', ['-c', 'core.hooksPath=/dev/null', 'cat-file', '--batch'], {
      cwd: this.cwd,
      env: this.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.header = Buffer.alloc(0);
    this.current = undefined;
    this.stderr = '';
    child.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => this.stop(error, child));
    child.on('close', (code, signal) => {
      if (this.child !== child) return;
      const text = this.stderr.replace(/\s+/g, ' ').trim();
      this.stop(
        signal === 'SIGKILL'
          ? new GitError('timeout', `git cat-file did not finish within ${this.timeoutMs / 1000} s`)
          : new GitError('git', `git cat-file ended (exit ${String(code ?? signal)}): ${text.slice(0, 300)}`),
        child,
      );
    });
    child.stdin.on('error', () => {
      // the process ended early; its exit reports why
    });
    return child;
  }

  /** A time limit while requests wait; renewed as each is answered. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer =
      this.queue.length > 0
        ? setTimeout(() => {
            this.child?.kill('SIGKILL');
          }, this.timeoutMs)
        : undefined;
  }

  private take(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const request = this.queue[0];
      if (!request) {
        this.stop(new GitError('git', 'git cat-file answered what was not asked'));
        return;
      }
      if (!this.current) {
        const eol = chunk.indexOf(10, at);
        if (eol < 0) {
          this.header = Buffer.concat([this.header, chunk.subarray(at)]);
          if (this.header.length > 1024) this.stop(new GitError('git', 'git cat-file: unreadable answer'));
          return;
        }
        const line = Buffer.concat([this.header, chunk.subarray(at, eol)]).toString('utf8');
        this.header = Buffer.alloc(0);
        at = eol + 1;
        const [oid, type, size] = line.split(' ');
        if (type !== request.expected || size === undefined || !/^\d+$/.test(size)) {
          this.stop(new GitError('git', `git cat-file: ${line.slice(0, 200)}`));
          return;
        }
        request.bytes += Number(size);
        if (request.bytes > request.maxBytes) {
          this.stop(
            new GitError('git', `the objects are larger than ${request.maxBytes} bytes all together`),
          );
          return;
        }
        this.current = { oid: oid!, size: Number(size), chunks: [], remaining: Number(size) + 1 };
        continue;
      }
      const current = this.current;
      const piece = chunk.subarray(at, Math.min(chunk.length, at + current.remaining));
      current.chunks.push(piece);
      current.remaining -= piece.length;
      at += piece.length;
      if (current.remaining > 0) continue;
      const whole = current.chunks.length === 1 ? current.chunks[0]! : Buffer.concat(current.chunks);
      request.objects.push({ oid: current.oid, data: whole.subarray(0, current.size) });
      this.current = undefined;
      if (request.objects.length === request.names.length) {
        this.queue.shift();
        this.arm();
        request.resolve(request.objects);
      }
    }
  }

  /** Ends the process; waiting requests fail with `error` (or a plain one when closing). */
  private stop(error: Error | undefined, child = this.child): void {
    if (child !== this.child) return;
    this.child = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    child?.stdout.removeAllListeners('data');
    child?.kill('SIGKILL');
    const waiting = this.queue.splice(0);
    for (const request of waiting)
      request.reject(error ?? new GitError('git', 'the object reader was closed while reading'));
  }
}

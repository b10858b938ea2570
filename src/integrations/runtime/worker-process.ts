import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { type GatewayHandler, startGateway } from './gateway.js';
import { workerConfig } from './worker-config.js';

export interface WorkerLimits {
  /** Wall-clock time a script may take to answer one event; then its process is killed. */
  timeoutMs: number;
  /** V8 heap of the isolate; a script that needs more aborts its own process only. */
  memoryMb: number;
  /** Largest request a script may send out, and largest answer it may give. */
  maxBodyBytes: number;
}

/** Why a script did not answer. */
export class ScriptFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'crashed' | 'too-large' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'ScriptFailure';
  }
}

/** A connection the process refused: nothing reached the script. */
class NotDelivered extends Error {}

/** A line the process wrote: console output of the script, or workerd's own errors. */
export interface LogLine {
  message: string;
  /** When it was read (ISO). */
  timestamp: string;
  level: 'info' | 'error';
}

export interface WorkerAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const STARTUP_MS = 10_000;
const KEPT_LOG_LINES = 50;

/**
 * One workerd process running one integration version in one isolate, with its own gateway.
 * A process per version keeps a script that loops, or exhausts its heap, from stopping any
 * other integration: the process that misbehaved is killed (or aborts) and the next event
 * starts it again.
 */
export class WorkerProcess {
  private child: ChildProcess | undefined;
  /** False from the moment the process is killed, before its exit is seen. */
  private alive = false;
  /** Each start listens on a socket of its own, never one a killed process may still hold. */
  private generation = 0;
  private starting: Promise<void> | undefined;
  private gateway: { close(): Promise<void> } | undefined;
  private readonly log: LogLine[] = [];
  /** How many lines were ever written: a mark taken before an event finds that event's lines. */
  private written = 0;
  private lastLineAt = 0;
  lastUsed = Date.now();

  constructor(
    private readonly options: {
      binary: string;
      compatibilityDate: string;
      /** A private directory of its own (short: it holds Unix sockets). */
      dir: string;
      script: string;
      limits: WorkerLimits;
      gateway: GatewayHandler;
    },
  ) {}

  private get listenSocket() {
    return path.join(this.options.dir, `w${this.generation}.sock`);
  }

  /** The last lines workerd wrote (script console output and errors), for reports. */
  recentLog(): string {
    return this.log.map((l) => l.message).join('\n');
  }

  /** The count of lines written so far, to read what comes after with `linesSince`. */
  logMark(): number {
    return this.written;
  }

  /**
   * Waits until the process has written nothing for `idleMs` (at most `maxMs`): a script's last
   * words (an error's stack) travel through a pipe and may arrive after its answer.
   */
  async quiet(idleMs = 30, maxMs = 300): Promise<void> {
    const until = Date.now() + maxMs;
    do {
      await new Promise((resolve) => setTimeout(resolve, idleMs));
    } while (Date.now() - this.lastLineAt < idleMs && Date.now() < until);
  }

  /** The kept lines written after `mark` (older ones may have been dropped). */
  linesSince(mark: number): LogLine[] {
    const fresh = this.written - mark;
    return fresh <= 0 ? [] : this.log.slice(-fresh);
  }

  /** POSTs to the script; starts the process first when it is not running. */
  async request(urlPath: string, headers: Record<string, string>, body: Buffer): Promise<WorkerAnswer> {
    this.lastUsed = Date.now();
    await this.start();
    try {
      return await this.send(urlPath, headers, body);
    } catch (error) {
      // The process died between two events (its exit not seen yet): the script never got this
      // one, so it is sent once more to a fresh process.
      if (!(error instanceof NotDelivered)) throw error;
      await this.start();
      return this.send(urlPath, headers, body);
    }
  }

  private send(urlPath: string, headers: Record<string, string>, body: Buffer): Promise<WorkerAnswer> {
    const child = this.child!;
    const { timeoutMs, maxBodyBytes } = this.options.limits;
    return new Promise<WorkerAnswer>((resolve, reject) => {
      let settled = false;
      const settle = (error: Error | undefined, answer?: WorkerAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve(answer!);
      };
      const timer = setTimeout(() => {
        // workerd has no CPU limit of its own: a script still busy is killed with its process.
        this.kill();
        settle(
          new ScriptFailure('timeout', `the script did not answer within ${timeoutMs} ms and was stopped`),
        );
      }, timeoutMs);
      const onExit = () =>
        settle(
          new ScriptFailure('crashed', `the script's process stopped while it ran: ${this.lastError()}`),
        );
      child.once('exit', onExit);
      const outgoing = httpRequest(
        {
          socketPath: this.listenSocket,
          path: urlPath,
          method: 'POST',
          headers: { ...headers, host: 'integration', 'content-length': String(body.length) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBodyBytes) {
              response.destroy();
              settle(new ScriptFailure('too-large', `the script answered more than ${maxBodyBytes} bytes`));
            } else chunks.push(chunk);
          });
          response.on('end', () => {
            const flat: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            settle(undefined, {
              status: response.statusCode ?? 500,
              headers: flat,
              body: Buffer.concat(chunks, size),
            });
          });
          response.on('error', (error) => settle(new ScriptFailure('crashed', error.message)));
        },
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        this.kill();
        if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') settle(new NotDelivered(error.message));
        else settle(new ScriptFailure('crashed', `${error.message}: ${this.lastError()}`));
      });
      outgoing.end(body);
    });
  }

  private start(): Promise<void> {
    if (this.child && this.alive) return Promise.resolve();
    this.starting ??= this.spawn().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async spawn(): Promise<void> {
    const { dir, binary, compatibilityDate, limits, script } = this.options;
    await this.exited();
    this.generation++;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, 'script.js'), script);
    const gatewaySocket = path.join(dir, 'g.sock');
    if (!this.gateway)
      this.gateway = await startGateway(gatewaySocket, this.options.gateway, limits.maxBodyBytes);
    const config = workerConfig({
      scriptFile: 'script.js',
      compatibilityDate,
      listenSocket: this.listenSocket,
      gatewaySocket,
      memoryMb: limits.memoryMb,
    });
    writeFileSync(path.join(dir, 'config.capnp'), config);
    const child = spawn(binary, ['serve', 'config.capnp', '--verbose'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    this.child = child;
    this.alive = true;
    child.once('exit', () => {
      this.alive = false;
    });
    const keep = (level: LogLine['level']) => (chunk: Buffer) => {
      const timestamp = new Date().toISOString();
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        this.log.push({ message: line.slice(0, 500), timestamp, level });
        this.written++;
        this.lastLineAt = Date.now();
        if (this.log.length > KEPT_LOG_LINES) this.log.shift();
      }
    };
    child.stdout!.on('data', keep('info'));
    child.stderr!.on('data', keep('error'));
    await this.ready(child);
  }

  /** Waits until the socket answers (workerd starts in tens of milliseconds). */
  private async ready(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + STARTUP_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new ScriptFailure('unavailable', `workerd did not start: ${this.lastError()}`);
      }
      if (await this.answers()) return;
      if (Date.now() > deadline) {
        this.kill();
        throw new ScriptFailure(
          'unavailable',
          `workerd did not start within ${STARTUP_MS} ms: ${this.lastError()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  }

  /** Whether workerd accepts connections on its socket (no request: the script is not run). */
  private answers(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect(this.listenSocket);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  }

  private lastError(): string {
    const lines = this.log.filter((l) => /error|fatal|exception|uncaught/i.test(l.message));
    return (lines.at(-1) ?? this.log.at(-1))?.message.trim() ?? 'no output';
  }

  kill(): void {
    this.alive = false;
    if (this.child && this.child.exitCode === null && this.child.signalCode === null)
      this.child.kill('SIGKILL');
  }

  /** Resolves once the current process, if any, has exited. */
  private exited(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => child.once('exit', () => resolve()));
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await this.gateway?.close();
    this.gateway = undefined;
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { GatewayHandler } from './gateway.js';
import {
  type LogLine,
  ScriptFailure,
  type WorkerAnswer,
  type WorkerLimits,
  WorkerProcess,
} from './worker-process.js';
import type { WorkerdBinary } from './workerd-binary.js';

/** The script of one integration version. */
export interface IntegrationScript {
  name: string;
  version: number;
  script: string;
}

export interface RuntimeOptions {
  binary: WorkerdBinary;
  limits: WorkerLimits;
  /** A process not used for this long is stopped (it starts again in tens of milliseconds). */
  idleMs: number;
  /** What the fetch() calls of one integration's script get. */
  gateway(integration: { name: string; version: number }): GatewayHandler;
  log: Deps['log'];
}

/**
 * Runs integration scripts in workerd, one process per integration version, started when an
 * event comes and stopped when idle. Events are posted the way GitBook's dispatcher posts them,
 * which `@gitbook/runtime` reads: `POST /v1` with a multipart form of `event` and
 * `environment` (JSON), and `fetch-body` for requests to the integration's public endpoint.
 */
export class IntegrationRuntime {
  private readonly processes = new Map<string, { version: number; process: WorkerProcess }>();
  private dir: string | undefined;
  private readonly reaper: NodeJS.Timeout | undefined;

  constructor(private readonly options: RuntimeOptions) {
    if ('path' in options.binary) {
      this.reaper = setInterval(() => void this.reapIdle(), Math.max(1000, options.idleMs / 2));
      this.reaper.unref();
    }
  }

  /** Why scripts do not run here, or undefined when they do. */
  get unavailable(): string | undefined {
    return 'missing' in this.options.binary ? this.options.binary.missing : undefined;
  }

  async dispatch(
    integration: IntegrationScript,
    event: object,
    environment: object,
    fetchBody?: Buffer,
    /** Receives the lines the process wrote while it handled this event. */
    trace?: LogLine[],
  ): Promise<WorkerAnswer> {
    const binary = this.options.binary;
    if ('missing' in binary)
      throw new ScriptFailure('unavailable', `integration scripts do not run: ${binary.missing}`);
    const form = new FormData();
    form.set('event', JSON.stringify(event));
    form.set('environment', JSON.stringify(environment));
    if (fetchBody !== undefined) form.set('fetch-body', new Blob([new Uint8Array(fetchBody)]));
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    if (body.length > this.options.limits.maxBodyBytes) {
      throw new ScriptFailure(
        'too-large',
        `the event is larger than ${this.options.limits.maxBodyBytes} bytes`,
      );
    }
    const worker = await this.processOf(integration, binary);
    const mark = worker.logMark();
    let failed = true;
    try {
      const answer = await worker.request(
        '/v1',
        { 'content-type': encoded.headers.get('content-type')! },
        body,
      );
      failed = answer.status >= 500;
      return answer;
    } finally {
      if (trace) {
        // A failure's output is what its owner needs to read: wait for it to arrive.
        if (failed) await worker.quiet();
        trace.push(...worker.linesSince(mark));
      }
    }
  }

  /** The last lines of an integration's process output (console.log of its script, errors). */
  recentLog(name: string): string {
    return this.processes.get(name)?.process.recentLog() ?? '';
  }

  private async processOf(
    integration: IntegrationScript,
    binary: { path: string; compatibilityDate: string },
  ): Promise<WorkerProcess> {
    const current = this.processes.get(integration.name);
    if (current?.version === integration.version) return current.process;
    // A new version replaces the old one's process.
    if (current) await current.process.stop();
    // Made at the first start, not with the server: a server whose integrations never run
    // (most of them, and most test servers) leaves nothing behind in the temporary directory.
    // Short, private and fresh: it holds Unix sockets (paths of at most 107 bytes).
    this.dir ??= mkdtempSync(path.join(tmpdir(), 'quire-wd-'));
    const process = new WorkerProcess({
      binary: binary.path,
      compatibilityDate: binary.compatibilityDate,
      dir: path.join(this.dir, `${this.processes.size}-${Date.now().toString(36)}`),
      script: integration.script,
      limits: this.options.limits,
      gateway: this.options.gateway({ name: integration.name, version: integration.version }),
    });
    this.processes.set(integration.name, { version: integration.version, process });
    return process;
  }

  /** Stops the process of an integration (unpublished, or a new version is coming). */
  async forget(name: string): Promise<void> {
    const current = this.processes.get(name);
    this.processes.delete(name);
    await current?.process.stop();
  }

  private async reapIdle(): Promise<void> {
    const now = Date.now();
    for (const [name, { process }] of this.processes) {
      if (now - process.lastUsed > this.options.idleMs) {
        this.processes.delete(name);
        await process
          .stop()
          .catch((error: Error) =>
            this.options.log.warn({ err: error, name }, 'stopping an idle integration failed'),
          );
      }
    }
  }

  async close(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    await Promise.all([...this.processes.values()].map(({ process }) => process.stop()));
    this.processes.clear();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

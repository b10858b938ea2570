import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type LogArgs = Parameters<FastifyBaseLogger['info']>;
/** The parent logger: pino, which can tell whether a level is written. */
type Parent = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * `request.log` with the request id, whose pino child is built only when something is written.
 * Fastify builds that child for every request, and most requests write nothing: the access
 * line (`RequestLog`) goes through the parent with the id among its fields. In bench/api's
 * GET /v1/orgs/{id} the child was about 1.5% of the server's time (perf), and a bare Fastify
 * answered 7% fewer requests with pino than without.
 */
export class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Parent,
    private readonly bindings: Bindings,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings);
    return this.made;
  }

  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  private write(level: Level, args: LogArgs): void {
    if (this.made) (this.made[level] as (...a: LogArgs) => void)(...args);
    else if (this.parent.isLevelEnabled(level)) (this.logger[level] as (...a: LogArgs) => void)(...args);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  /** One line of fields with the request's bindings, without building the child. */
  line(level: 'info' | 'error', fields: Bindings, message: string): void {
    if (this.made) this.made[level](fields, message);
    else if (this.parent.isLevelEnabled(level)) this.parent[level]({ ...this.bindings, ...fields }, message);
  }
}

/**
 * Fastify's `childLoggerFactory`: a `RequestLogger` when the parent is pino at the route's own
 * level; a route with its own level or serializers, or a logger that cannot tell its levels
 * (the tests' `logger: false`), gets the child at once as before.
 */
export const requestLoggers: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  const parent = logger as Partial<Parent>;
  if (typeof parent.isLevelEnabled !== 'function' || options.level || options.serializers)
    return logger.child(bindings, options);
  return new RequestLogger(logger as Parent, bindings);
};

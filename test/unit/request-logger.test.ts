import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { RequestLogger, requestLoggers } from '../../src/http/request-logger.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, parent: pino({ level }, stream) };
}

describe('request loggers', () => {
  it('build no pino child for a request that writes nothing at its level', () => {
    const { lines, parent } = capture('warn');
    const child = vi.spyOn(parent, 'child');
    const log = new RequestLogger(parent, { requestId: 'r1' });
    log.info('not written');
    log.debug({ a: 1 }, 'not written either');
    log.line('info', { statusCode: 200 }, 'request completed');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');
  });

  it('write the request id on the lines they do write, with or without a child', () => {
    const { lines, parent } = capture('info');
    const log = new RequestLogger(parent, { requestId: 'r2' });
    log.line('info', { statusCode: 200 }, 'request completed');
    log.warn({ err: new Error('boom') }, 'something failed');
    log.line('error', { statusCode: 500 }, 'request errored');
    expect(lines).toMatchObject([
      { level: 30, requestId: 'r2', statusCode: 200, msg: 'request completed' },
      { level: 40, requestId: 'r2', err: { message: 'boom', type: 'Error' }, msg: 'something failed' },
      { level: 50, requestId: 'r2', statusCode: 500, msg: 'request errored' },
    ]);
    expect(lines.filter((l) => l.requestId === 'r2')).toHaveLength(3);
  });

  it('hand out children that keep the request id, and follow a level set on them', () => {
    const { lines, parent } = capture('info');
    const log = new RequestLogger(parent, { requestId: 'r3' });
    log.child({ job: 'sync' }).info('from the child');
    log.level = 'error';
    log.warn('dropped');
    expect(log.level).toBe('error');
    expect(parent.level).toBe('info');
    expect(lines).toMatchObject([{ requestId: 'r3', job: 'sync', msg: 'from the child' }]);
  });

  it('give a route with its own level a pino child at once', () => {
    const { parent } = capture('info');
    const own = requestLoggers.call(
      undefined as never,
      parent,
      { requestId: 'r4' },
      { level: 'debug' },
      {} as never,
    );
    expect(own).not.toBeInstanceOf(RequestLogger);
    expect(own.level).toBe('debug');
    const lazy = requestLoggers.call(undefined as never, parent, { requestId: 'r5' }, {}, {} as never);
    expect(lazy).toBeInstanceOf(RequestLogger);
  });
});

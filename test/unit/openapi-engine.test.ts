import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FetchInit,
  OutboundClient,
  OutboundError,
  type OutboundResponse,
} from '../../src/http/outbound.js';
import type { ProcessedSpec, ProcessOutcome } from '../../src/openapi/document.js';
import { processSpec } from '../../src/openapi/process.js';
import { PETSTORE_YAML, petstore, referring, SWAGGER_2 } from '../fixtures/openapi/petstore.js';
import { SpecServer } from '../helpers/spec-server.js';

/** A fetcher answering from a map of URL -> body, recording what was asked. */
function fakeFetcher(files: Record<string, string | OutboundError>) {
  const asked: Array<{ url: string; init: FetchInit }> = [];
  return {
    asked,
    async fetch(url: string, init: FetchInit = {}): Promise<OutboundResponse> {
      asked.push({ url, init });
      const file = files[url];
      if (file instanceof OutboundError) throw file;
      if (file === undefined) return { status: 404, headers: {}, body: Buffer.from('no'), url };
      return { status: 200, headers: {}, body: Buffer.from(file), url };
    },
  };
}

function ok(outcome: ProcessOutcome): ProcessedSpec {
  if (!outcome.ok) throw new Error(`expected a document, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

// biome-ignore lint/suspicious/noExplicitAny: documents are free-form JSON
const at = (document: unknown, ...path: string[]): any =>
  // biome-ignore lint/suspicious/noExplicitAny: documents are free-form JSON
  path.reduce((node: any, key) => node?.[key], document);

const schemaOf = (document: unknown, path: string) =>
  at(document, 'paths', path, 'get', 'responses', '200', 'content', 'application/json', 'schema');

describe('processing a specification', () => {
  it('keeps a valid 3.1 document as it is, with its raw text and a content hash', async () => {
    const text = JSON.stringify(petstore());
    const result = ok(await processSpec({ kind: 'text', text }, { fetcher: fakeFetcher({}) }));
    expect(result.document).toEqual(petstore());
    expect(result.json).toBe(text);
    expect(result.raw).toEqual({ text, format: 'json' });
    expect(result.issues).toEqual([]);
    expect(result.issueCount).toBe(0);
    expect(result.externalDocuments).toBe(0);
    expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
    const again = ok(
      await processSpec(
        { kind: 'text', text: JSON.stringify(petstore(), null, 4) },
        { fetcher: fakeFetcher({}) },
      ),
    );
    expect(again.hash).toBe(result.hash);
  });

  it('upgrades OpenAPI 3.0 (YAML) and Swagger 2.0 to 3.1', async () => {
    const yaml = ok(await processSpec({ kind: 'text', text: PETSTORE_YAML }, { fetcher: fakeFetcher({}) }));
    expect(yaml.document.openapi).toMatch(/^3\.1\./);
    expect(at(yaml.document, 'components', 'schemas', 'Pet', 'type')).toEqual(['object', 'null']);
    expect(yaml.raw.format).toBe('yaml');
    const swagger = ok(await processSpec({ kind: 'text', text: SWAGGER_2 }, { fetcher: fakeFetcher({}) }));
    expect(swagger.document.openapi).toMatch(/^3\.1\./);
    expect(schemaOf(swagger.document, '/pets')).toEqual({ $ref: '#/components/schemas/Pet' });
  });

  it('fails with PARSE_ERROR, FETCH_ERROR or FETCH_TIMEOUT when there is no document to keep', async () => {
    const fetcher = fakeFetcher({
      'https://specs.test/timeout.json': new OutboundError('timeout', 'did not answer within 5 ms'),
      'https://specs.test/blocked.json': new OutboundError('blocked', 'Refused to fetch it'),
      'https://specs.test/html': '<html>not a spec</html>',
    });
    const run = (url: string) => processSpec({ kind: 'url', url }, { fetcher });
    expect(await run('https://specs.test/timeout.json')).toMatchObject({ ok: false, code: 'FETCH_TIMEOUT' });
    expect(await run('https://specs.test/blocked.json')).toEqual({
      ok: false,
      code: 'FETCH_ERROR',
      message: 'Refused to fetch it',
    });
    expect(await run('https://specs.test/missing.json')).toMatchObject({ ok: false, code: 'FETCH_ERROR' });
    expect(await run('https://specs.test/html')).toMatchObject({ ok: false, code: 'PARSE_ERROR' });
    const text = (t: string) => processSpec({ kind: 'text', text: t }, { fetcher });
    expect(await text('{"openapi":"9.0"}')).toMatchObject({ ok: false, code: 'PARSE_ERROR' });
    expect(await text('{"openapi":3.1}')).toMatchObject({ ok: false, code: 'PARSE_ERROR' });
    expect(await text('{"swagger":"1.2"}')).toMatchObject({ ok: false, code: 'PARSE_ERROR' });
    const deep = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    expect(await text(deep)).toMatchObject({
      ok: false,
      code: 'PARSE_ERROR',
      message: expect.stringMatching(/nested too deeply/),
    });
    // The entry file is bounded before it is read.
    const small = await processSpec(
      { kind: 'text', text: JSON.stringify(petstore()) },
      { fetcher, limits: { maxSourceBytes: 100 } },
    );
    expect(small).toMatchObject({ ok: false, code: 'PARSE_ERROR' });
    expect(fetcher.asked.map((a) => a.init.maxBytes)).toEqual([
      20 * 1024 * 1024,
      20 * 1024 * 1024,
      20 * 1024 * 1024,
      20 * 1024 * 1024,
    ]);
  });

  it('bundles files referred to relative to the source URL, each fetched once', async () => {
    const fetcher = fakeFetcher({
      'https://specs.test/api/openapi.json': JSON.stringify(
        referring('./schemas/pet.json#/Pet', 'schemas/pet.json#/Pet', 'https://cdn.test/common.yaml#/Error'),
      ),
      'https://specs.test/api/schemas/pet.json': JSON.stringify({
        Pet: {
          type: 'object',
          properties: { owner: { $ref: '../people.json#/Person' }, self: { $ref: '#/Pet' } },
        },
      }),
      'https://specs.test/api/people.json': JSON.stringify({ Person: { type: 'object' } }),
      'https://cdn.test/common.yaml': 'Error:\n  type: object\n',
    });
    const result = ok(
      await processSpec({ kind: 'url', url: 'https://specs.test/api/openapi.json' }, { fetcher }),
    );
    expect(result.url).toBe('https://specs.test/api/openapi.json');
    expect(result.externalDocuments).toBe(3);
    expect(result.issues).toEqual([]);
    expect(fetcher.asked.map((a) => a.url).sort()).toEqual([
      'https://cdn.test/common.yaml',
      'https://specs.test/api/openapi.json',
      'https://specs.test/api/people.json',
      'https://specs.test/api/schemas/pet.json',
    ]);
    const ref = schemaOf(result.document, '/op0').$ref as string;
    expect(schemaOf(result.document, '/op1').$ref).toBe(ref);
    const [, , key] = ref.split('/');
    const pet = at(result.document, 'x-ext', key!, 'Pet');
    expect(pet.properties.self.$ref).toBe(`#/x-ext/${key}/Pet`);
    expect(pet.properties.owner.$ref).toMatch(/^#\/x-ext\/[^/]+\/Person$/);
    // What is stored is JSON, and has no cycles however the refs loop.
    expect(JSON.parse(result.json)).toEqual(result.document);
  });

  it('refuses other schemes and local paths without asking the fetcher', async () => {
    const fetcher = fakeFetcher({
      'https://specs.test/openapi.json': JSON.stringify(
        referring('file:///etc/passwd', 'C:\\Windows\\win.ini', 'ftp://files.test/a.json#/X', 'data:,{}'),
      ),
    });
    const result = ok(
      await processSpec({ kind: 'url', url: 'https://specs.test/openapi.json' }, { fetcher }),
    );
    expect(fetcher.asked.map((a) => a.url)).toEqual(['https://specs.test/openapi.json']);
    expect(result.issueCount).toBe(4);
    expect(result.issues.map((i) => i.message)).toEqual([
      expect.stringContaining('file: references are not followed'),
      expect.stringContaining('c: references are not followed'),
      expect.stringContaining('ftp: references are not followed'),
      expect.stringContaining('data: references are not followed'),
    ]);
    // Kept as written.
    expect(schemaOf(result.document, '/op0')).toEqual({ $ref: 'file:///etc/passwd' });

    const text = ok(
      await processSpec(
        { kind: 'text', text: JSON.stringify(referring('./pet.json#/Pet', '/etc/passwd')) },
        { fetcher: fakeFetcher({}) },
      ),
    );
    expect(text.issues).toHaveLength(2);
    expect(text.issues[0]!.message).toMatch(/absolute http\(s\) URL/);
    expect(schemaOf(text.document, '/op1')).toEqual({ $ref: '/etc/passwd' });
  });

  it('bounds the files fetched, their bytes, and the time', async () => {
    let fetched = 0;
    const endless = {
      async fetch(url: string): Promise<OutboundResponse> {
        fetched++;
        const n = Number(/(\d+)\.json$/.exec(url)?.[1] ?? 0);
        const body =
          n === 0
            ? JSON.stringify(referring('1.json#/X'))
            : JSON.stringify({ X: { $ref: `${n + 1}.json#/X` } });
        return { status: 200, headers: {}, body: Buffer.from(body), url };
      },
    };
    const chain = ok(
      await processSpec(
        { kind: 'url', url: 'https://loop.test/0.json' },
        { fetcher: endless, limits: { maxDocuments: 10 } },
      ),
    );
    expect(fetched).toBe(11);
    expect(chain.externalDocuments).toBe(10);
    expect(chain.issues.at(-1)!.message).toMatch(/more than 10 other files/);

    const files: Record<string, string> = {
      'https://big.test/openapi.json': JSON.stringify(referring('a.json', 'b.json')),
    };
    files['https://big.test/a.json'] = JSON.stringify({ type: 'string', description: 'a'.repeat(600) });
    files['https://big.test/b.json'] = JSON.stringify({ type: 'string', description: 'b'.repeat(600) });
    const fetcher = fakeFetcher(files);
    await processSpec(
      { kind: 'url', url: 'https://big.test/openapi.json' },
      { fetcher, limits: { maxTotalBytes: 1000, maxDocumentBytes: 800, concurrency: 1 } },
    );
    const [, first, second] = fetcher.asked;
    expect(first!.init.maxBytes).toBe(800);
    expect(second!.init.maxBytes).toBeLessThan(400);

    const slow = fakeFetcher({ 'https://slow.test/openapi.json': JSON.stringify(referring('a.json')) });
    const late = ok(
      await processSpec(
        { kind: 'url', url: 'https://slow.test/openapi.json' },
        { fetcher: slow, limits: { totalTimeMs: 0 } },
      ),
    );
    expect(late.issues[0]!.message).toMatch(/ran out of time/);
  });

  it('lists validation problems, at most 100, and counts them all', async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) paths[`/p${i}`] = { get: { responses: { '200': {} } } };
    const result = ok(
      await processSpec(
        {
          kind: 'text',
          text: JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }),
        },
        { fetcher: fakeFetcher({}) },
      ),
    );
    expect(result.issueCount).toBeGreaterThan(100);
    expect(result.issues).toHaveLength(100);
    // A missing info.version is not written into the stored document by the validator.
    const noVersion = ok(
      await processSpec(
        { kind: 'text', text: '{"openapi":"3.1.0","info":{"title":"t"},"paths":{}}' },
        { fetcher: fakeFetcher({}) },
      ),
    );
    expect(noVersion.document.info).toEqual({ title: 't' });
  });
});

describe('with the guarded outbound client', () => {
  let recorder: SpecServer;
  beforeAll(async () => {
    recorder = await SpecServer.start();
  });
  afterAll(() => recorder.close());

  it('never connects to a loopback, link-local or private address that is not allowed', async () => {
    const client = new OutboundClient({ allow: [] });
    const entry = await processSpec({ kind: 'url', url: recorder.url('/openapi.json') }, { fetcher: client });
    expect(entry).toMatchObject({
      ok: false,
      code: 'FETCH_ERROR',
      message: expect.stringMatching(/loopback/),
    });
    const refs = ok(
      await processSpec(
        {
          kind: 'text',
          text: JSON.stringify(
            referring(
              recorder.url('/a.json#/X'),
              `http://[::1]:${recorder.port}/b.json#/X`,
              'http://169.254.169.254/latest/meta-data#/X',
              'http://10.0.0.1/c.json#/X',
              `http://0x7f000001:${recorder.port}/d.json#/X`,
            ),
          ),
        },
        { fetcher: client },
      ),
    );
    expect(refs.issueCount).toBe(5);
    expect(refs.issues.map((i) => i.message)).toEqual(
      refs.issues.map(() => expect.stringMatching(/Refused to fetch/)),
    );
    expect(recorder.connections).toBe(0);
  });
});

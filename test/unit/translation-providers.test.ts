import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeepLProvider } from '../../src/translations/providers/deepl.js';
import { LibreTranslateProvider } from '../../src/translations/providers/libretranslate.js';
import { OpenAiProvider } from '../../src/translations/providers/openai.js';
import { type ProviderError, retryAfterMs } from '../../src/translations/providers/provider.js';
import { PseudoProvider, pseudo } from '../../src/translations/providers/pseudo.js';
import { translateSegments } from '../../src/translations/translate-segments.js';
import { startTranslationServer, type TranslationServer } from '../helpers/translation-server.js';

let service: TranslationServer;
beforeAll(async () => {
  service = await startTranslationServer();
});
afterAll(() => service.close());
beforeEach(() => {
  service.requests.length = 0;
  service.failures.length = 0;
});

const request = { source: 'en', target: 'fr', instructions: 'Formal tone. Keep "Quire" as is.' };
const segments = ['Hello <x id="1">world</x>', 'Press <x id="2"/> to save &amp; quit'];
const expected = ['HELLO <x id="1">WORLD</x>', 'PRESS <x id="2"/> TO SAVE &amp; QUIT'];

/** Placeholders must match: the check the runs use, reduced to tag equality. */
const tags = (text: string) => (text.match(/<[^>]*>/g) ?? []).join('');
const check = (source: string, translated: string) =>
  tags(source) === tags(translated) ? undefined : 'placeholders differ';

describe('the providers, against a service on loopback', () => {
  it('OpenAI-compatible: segments as JSON, instructions in the system prompt, a schema for the answer', async () => {
    const provider = new OpenAiProvider({
      url: service.url,
      model: 'llama3.1',
      apiKey: 'k',
      timeoutMs: 2000,
    });
    expect(await provider.translate({ ...request, segments })).toEqual(expected);
    const sent = service.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer k');
    expect(sent.body.model).toBe('llama3.1');
    const system = (sent.body.messages as Array<{ role: string; content: string }>)[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Formal tone. Keep "Quire" as is.');
    expect(system.content).toContain('from en to fr');
    expect(JSON.stringify(sent.body.response_format)).toContain('"maxItems":2');
  });

  it('LibreTranslate: one request with the list, html format', async () => {
    const provider = new LibreTranslateProvider({ url: service.url, timeoutMs: 2000 });
    expect(await provider.translate({ ...request, target: 'pt-br', segments })).toEqual(expected);
    expect(service.requests[0]!.body).toMatchObject({
      source: 'en',
      target: 'pb',
      format: 'html',
      q: segments,
    });
  });

  it('DeepL: tags as XML, its key in the header, instructions as context, a variant of the target', async () => {
    const provider = new DeepLProvider({ url: service.url, apiKey: 'dk', timeoutMs: 2000 });
    expect(await provider.translate({ ...request, target: 'en', source: 'fr', segments })).toEqual(expected);
    const sent = service.requests[0]!;
    expect(sent.path).toBe('/v2/translate');
    expect(sent.headers.authorization).toBe('DeepL-Auth-Key dk');
    expect(sent.body).toMatchObject({
      tag_handling: 'xml',
      source_lang: 'FR',
      target_lang: 'EN-US',
      context: request.instructions,
    });
  });

  it('pseudo-localisation keeps tags and references, lengthens the text, and is never empty', async () => {
    const [one, two] = await new PseudoProvider().translate({ ...request, segments });
    expect(one).toMatch(/^⟦fr⟧ Ĥéĺĺö <x id="1">ŵöŕĺđ<\/x>·+$/);
    expect(two).toContain('<x id="2"/>');
    expect(two).toContain('&amp;');
    expect(pseudo('abc', 'de').length).toBeGreaterThan('abc'.length);
  });

  it('tells failures apart: slow down (with Retry-After), down, refused, unreadable', async () => {
    // Long enough that only the service that never answers runs into it on a busy machine.
    const provider = new LibreTranslateProvider({ url: service.url, timeoutMs: 2000 });
    const failWith = async () => {
      try {
        await provider.translate({ ...request, segments });
      } catch (error) {
        return error as ProviderError;
      }
      throw new Error('expected a failure');
    };
    service.failures.push({ kind: 'status', status: 429, retryAfter: '7' });
    expect(await failWith()).toMatchObject({ failure: 'rate-limited', retryAfterMs: 7000 });
    service.failures.push({ kind: 'status', status: 503 });
    expect((await failWith()).failure).toBe('unavailable');
    service.failures.push({ kind: 'timeout' });
    expect(await failWith()).toMatchObject({
      failure: 'unavailable',
      message: expect.stringContaining('no answer within 2000 ms'),
    });
    service.failures.push({ kind: 'status', status: 403 });
    expect((await failWith()).failure).toBe('refused');
    service.failures.push({ kind: 'malformed' });
    expect((await failWith()).failure).toBe('bad-answer');
    service.failures.push({ kind: 'wrong-count' });
    expect(await failWith()).toMatchObject({
      failure: 'bad-answer',
      message: expect.stringContaining('1 texts for 2 segments'),
    });
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
  });
});

describe('translating segments', () => {
  // No test here waits for a time-out: a slow answer on a busy machine is still an answer.
  const provider = () => new OpenAiProvider({ url: service.url, model: 'm', timeoutMs: 10_000 });
  const waits: number[] = [];
  const options = { check, sleep: async (ms: number) => void waits.push(ms), backoffMs: 10 };

  it('waits as a rate limit says, tries a service that is down again, and gets through', async () => {
    waits.length = 0;
    service.failures.push({ kind: 'status', status: 429, retryAfter: '2' }, { kind: 'status', status: 500 });
    const outcomes = await translateSegments(provider(), request, segments, options);
    expect(outcomes.map((o) => o.text)).toEqual(expected);
    expect(waits).toEqual([2000, 10]);
  });

  it('gives up on a service that stays down (the run fails and changes nothing)', async () => {
    service.failures.push(...Array.from({ length: 5 }, () => ({ kind: 'status' as const, status: 500 })));
    await expect(translateSegments(provider(), request, segments, options)).rejects.toMatchObject({
      failure: 'unavailable',
    });
  });

  it('asks again, one at a time, for segments whose tags came back broken; what stays broken is reported', async () => {
    service.failures.push({ kind: 'break-tags', marker: 'world' }, { kind: 'break-tags', marker: 'world' });
    const outcomes = await translateSegments(provider(), request, segments, options);
    expect(outcomes[0]).toEqual({ text: undefined, problem: 'placeholders differ' });
    expect(outcomes[1]!.text).toBe(expected[1]);
    // The batch, then the broken segment alone.
    expect(service.requests.map((r) => r.segments.length)).toEqual([2, 1]);
  });

  it('a wrong count is asked again segment by segment', async () => {
    service.failures.push({ kind: 'wrong-count' });
    const outcomes = await translateSegments(provider(), request, segments, options);
    expect(outcomes.map((o) => o.text)).toEqual(expected);
    expect(service.requests.map((r) => r.segments.length)).toEqual([2, 1, 1]);
  });

  it('sends at most 50 segments a request', async () => {
    const many = Array.from({ length: 120 }, (_, i) => `Line ${i}`);
    await translateSegments(provider(), request, many, options);
    expect(service.requests.map((r) => r.segments.length)).toEqual([50, 50, 20]);
  });
});

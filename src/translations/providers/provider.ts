/**
 * A machine translation service, chosen by the operator (QUIRE_TRANSLATION_PROVIDER). Segments
 * carry inline markup as numbered tags (`<x id="1">…</x>`, `<x id="2"/>`, see ../segments.ts)
 * that a provider must give back as they are; the run checks them and retries a bad answer.
 */
export interface TranslateRequest {
  /** Language codes of GitBook's `TranslationLanguage` (`en`, `pt-br`, `zh-tw` …). */
  source: string;
  target: string;
  segments: readonly string[];
  /** The organization's instructions for the translator (tone, terms), as plain text. */
  instructions?: string;
}

export interface TranslationProvider {
  readonly name: string;
  /** One translation per segment, in order; throws ProviderError. */
  translate(request: TranslateRequest): Promise<string[]>;
}

export type ProviderFailure =
  /** The service said to slow down (429, DeepL's 456 quota): wait `retryAfterMs`. */
  | 'rate-limited'
  /** A server error, a timeout or no connection: worth another try later. */
  | 'unavailable'
  /** An answer that cannot be used (malformed, wrong number of segments). */
  | 'bad-answer'
  /** Refused for good (bad key, unsupported language). */
  | 'refused';

export class ProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** `Retry-After` in milliseconds (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * POSTs JSON to the service and answers the parsed reply. The URL comes from the operator's
 * configuration, never from API input, so it is fetched directly (a translation server is
 * usually on loopback) rather than through the guarded client; it still has a timeout.
 */
export async function postJson(
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; timeoutMs: number; service: string },
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : (error as Error).message;
    throw new ProviderError('unavailable', `${options.service} at ${url}: ${reason}`);
  }
  const text = await response.text();
  if (response.status === 429 || response.status === 456) {
    throw new ProviderError(
      'rate-limited',
      `${options.service} asks to slow down (${response.status})`,
      retryAfterMs(response.headers.get('retry-after')),
    );
  }
  if (response.status >= 500) {
    throw new ProviderError(
      'unavailable',
      `${options.service} answered ${response.status}: ${text.slice(0, 200)}`,
    );
  }
  if (!response.ok) {
    throw new ProviderError(
      'refused',
      `${options.service} refused the request (${response.status}): ${text.slice(0, 200)}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(
      'bad-answer',
      `${options.service} answered something that is not JSON: ${text.slice(0, 100)}`,
    );
  }
}

/** The answer's translations when they are `count` strings; a bad-answer error otherwise. */
export function sameCount(service: string, answer: unknown, count: number): string[] {
  if (!Array.isArray(answer) || answer.some((item) => typeof item !== 'string')) {
    throw new ProviderError('bad-answer', `${service} did not answer a list of texts`);
  }
  if (answer.length !== count) {
    throw new ProviderError('bad-answer', `${service} answered ${answer.length} texts for ${count} segments`);
  }
  return answer as string[];
}

import { postJson, sameCount, type TranslateRequest, type TranslationProvider } from './provider.js';

const SERVICE = 'LibreTranslate';

/** LibreTranslate's codes where they differ from GitBook's. */
const CODES: Record<string, string> = { 'pt-br': 'pb', 'zh-tw': 'zt', zh: 'zh' };
const code = (language: string) => CODES[language] ?? language.split('-')[0]!;

/**
 * A LibreTranslate server (self-hosted Argos models: translation offline). Segments go as a list
 * in one request with `format: html`, so the placeholder tags are kept as markup. It takes no
 * instructions.
 */
export class LibreTranslateProvider implements TranslationProvider {
  readonly name = 'libretranslate';

  constructor(private readonly options: { url: string; apiKey?: string; timeoutMs: number }) {}

  async translate(request: TranslateRequest): Promise<string[]> {
    const answer = (await postJson(
      `${this.options.url.replace(/\/$/, '')}/translate`,
      {
        q: request.segments,
        source: code(request.source),
        target: code(request.target),
        format: 'html',
        ...(this.options.apiKey ? { api_key: this.options.apiKey } : {}),
      },
      { timeoutMs: this.options.timeoutMs, service: SERVICE },
    )) as { translatedText?: unknown };
    return sameCount(SERVICE, answer?.translatedText, request.segments.length);
  }
}

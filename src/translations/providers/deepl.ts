import { ProviderError, postJson, type TranslateRequest, type TranslationProvider } from './provider.js';

const SERVICE = 'DeepL';

/** DeepL's target codes where GitBook's do not map by upper-casing (it wants a variant of English and Portuguese). */
const TARGETS: Record<string, string> = {
  en: 'EN-US',
  pt: 'PT-PT',
  'pt-br': 'PT-BR',
  'zh-tw': 'ZH-HANT',
  zh: 'ZH-HANS',
};
const SOURCES: Record<string, string> = { 'pt-br': 'PT', 'zh-tw': 'ZH' };

/**
 * DeepL's v2 API (`QUIRE_TRANSLATION_URL` https://api.deepl.com, or https://api-free.deepl.com).
 * Placeholder tags are XML to it (`tag_handling: xml`); instructions go as `context`, which
 * DeepL reads without translating or billing it. Callers keep each request under 128 KiB.
 */
export class DeepLProvider implements TranslationProvider {
  readonly name = 'deepl';

  constructor(private readonly options: { url: string; apiKey: string; timeoutMs: number }) {}

  async translate(request: TranslateRequest): Promise<string[]> {
    const answer = (await postJson(
      `${this.options.url.replace(/\/$/, '')}/v2/translate`,
      {
        text: request.segments,
        source_lang: SOURCES[request.source] ?? request.source.toUpperCase(),
        target_lang: TARGETS[request.target] ?? request.target.toUpperCase(),
        tag_handling: 'xml',
        ...(request.instructions ? { context: request.instructions } : {}),
      },
      {
        timeoutMs: this.options.timeoutMs,
        service: SERVICE,
        headers: { authorization: `DeepL-Auth-Key ${this.options.apiKey}` },
      },
    )) as { translations?: Array<{ text?: unknown }> };
    const translations = answer?.translations;
    if (!Array.isArray(translations))
      throw new ProviderError('bad-answer', `${SERVICE} answered no translations`);
    const texts = translations.map((t) => t?.text);
    if (texts.length !== request.segments.length || texts.some((t) => typeof t !== 'string')) {
      throw new ProviderError(
        'bad-answer',
        `${SERVICE} answered ${texts.length} texts for ${request.segments.length} segments`,
      );
    }
    return texts as string[];
  }
}

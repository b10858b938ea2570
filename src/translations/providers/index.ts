import type { TranslationConfig } from '../../config.js';
import { DeepLProvider } from './deepl.js';
import { LibreTranslateProvider } from './libretranslate.js';
import { OpenAiProvider } from './openai.js';
import type { TranslationProvider } from './provider.js';
import { PseudoProvider } from './pseudo.js';

/** The provider the operator configured (config.ts checked what each one needs). */
export function createProvider(config: TranslationConfig): TranslationProvider {
  const { url, apiKey, model, timeoutMs } = config;
  switch (config.provider) {
    case 'openai':
      return new OpenAiProvider({ url: url!, model: model!, apiKey, timeoutMs });
    case 'libretranslate':
      return new LibreTranslateProvider({ url: url!, apiKey, timeoutMs });
    case 'deepl':
      return new DeepLProvider({ url: url!, apiKey: apiKey!, timeoutMs });
    case 'pseudo':
      return new PseudoProvider();
  }
}

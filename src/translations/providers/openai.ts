import {
  ProviderError,
  postJson,
  sameCount,
  type TranslateRequest,
  type TranslationProvider,
} from './provider.js';

const SERVICE = 'the OpenAI-compatible server';

/**
 * Any server speaking OpenAI's chat completions (a local Ollama, llama.cpp's server, vLLM, LM
 * Studio, or OpenAI itself). The segments go as a JSON array and come back as one of the same
 * length, constrained by a JSON schema where the server honours `response_format`.
 */
export class OpenAiProvider implements TranslationProvider {
  readonly name = 'openai';

  constructor(private readonly options: { url: string; model: string; apiKey?: string; timeoutMs: number }) {}

  async translate(request: TranslateRequest): Promise<string[]> {
    const system = [
      `You translate documentation from ${request.source} to ${request.target}.`,
      'You receive a JSON object {"segments": [...]} and answer {"translations": [...]}: one translation per segment, in the same order, the same count.',
      'Segments contain tags like <x id="1">text</x> and <x id="2"/>: keep every tag exactly as it is (same ids, same nesting) and translate only the text around and inside them.',
      'Do not add explanations, do not add or remove text, do not change structure.',
      request.instructions ? `Instructions from the documentation team:\n${request.instructions}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    const answer = (await postJson(
      `${this.options.url.replace(/\/$/, '')}/v1/chat/completions`,
      {
        model: this.options.model,
        temperature: 0,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: JSON.stringify({ segments: request.segments }) },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'translations',
            strict: true,
            schema: {
              type: 'object',
              properties: {
                translations: {
                  type: 'array',
                  items: { type: 'string' },
                  minItems: request.segments.length,
                  maxItems: request.segments.length,
                },
              },
              required: ['translations'],
              additionalProperties: false,
            },
          },
        },
      },
      {
        timeoutMs: this.options.timeoutMs,
        service: SERVICE,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
      },
    )) as { choices?: Array<{ message?: { content?: unknown } }> };
    const content = answer?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ProviderError('bad-answer', `${SERVICE} answered no message`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      throw new ProviderError('bad-answer', `${SERVICE}'s message is not JSON: ${content.slice(0, 100)}`);
    }
    return sameCount(SERVICE, (parsed as { translations?: unknown })?.translations, request.segments.length);
  }
}

import type { ConversationInput } from '../areas/conversations/schemas.js';
import { declaredLanguage, guessLanguage } from './language.js';
import { issueTerms } from './terms.js';
import type { ExtractedIssue } from './types.js';

/** Limits of AREAS-2 §4.2, in UTF-16 code units (what `String.length` and the API count). */
export const MAX_TITLE = 120;
export const MAX_SUMMARY = 500;

/**
 * The issue of a conversation, offline (AREAS-2 §4.2): one per conversation with at least one
 * user message, none otherwise (assistant-only or team-only conversations report nothing).
 *
 * - `title`: the subject, or else the first sentence of the first user message. A first sentence
 *   that is only a greeting ("Hi team!") is passed over for the next one when there is one:
 *   the title becomes a cluster's label, and "Hi team!" would label nothing;
 * - `summary`: the user messages, whitespace collapsed, separated by blank lines;
 * - both cut at a word boundary (or anywhere in text without spaces) and marked with "…";
 * - `language`: `metadata.attributes.language` (or `locale`) when the engine knows it, else a
 *   guess from the text (language.ts).
 *
 * A message of only whitespace is not a message.
 */
export function extractIssue(input: ConversationInput): ExtractedIssue | undefined {
  const messages = input.parts
    .filter((part) => part.role === 'user')
    .map((part) => part.body.trim())
    .filter((body) => body.length > 0);
  if (messages.length === 0) return undefined;
  const subject = collapse(input.subject ?? '');
  const title = cut(subject || firstSentence(messages[0]!), MAX_TITLE);
  const summary = cut(messages.map(collapse).join('\n\n'), MAX_SUMMARY);
  const attributes = input.metadata?.attributes ?? {};
  const language =
    declaredLanguage(attributes.language ?? attributes.locale) ?? guessLanguage(`${title}\n${summary}`);
  return { title, summary, language };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A sentence ends at `.`, `!`, `?` or `…` before a space or the end (so "v1.2" and "example.com"
 * do not end one), at a CJK full stop, exclamation or question mark, or at a line break.
 */
const SENTENCE = /[^\n]*?(?:[.!?…]+(?=\s|$)|[。！？]+|(?=\n)|$)/gu;

/** The first sentence with a topic word in it, or the first sentence when none has one. */
function firstSentence(message: string): string {
  const sentences = [...message.matchAll(SENTENCE)].map((m) => collapse(m[0])).filter(Boolean);
  const language = guessLanguage(message);
  return collapse(
    sentences.find((sentence) => issueTerms(sentence, language).length > 0) ?? sentences[0] ?? message,
  );
}

/** `text` in at most `max` code units: cut at the last space that keeps half of it, then "…". */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const space = Math.max(text.lastIndexOf(' ', end), text.lastIndexOf('\n', end));
  if (space >= max / 2) end = space;
  else if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1; // never split a surrogate pair
  return `${text.slice(0, end).trimEnd()}…`;
}

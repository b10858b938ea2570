import type { ProcessingIssue } from './document.js';
import { SpecReader } from './read/spec-reader.js';
import { someRef } from './ref-walk.js';

/**
 * The local refs (`#/components/schemas/Pet`) of a document that point at nothing. The parser's
 * validator reports a ref only when a step before its last one is missing (it reads the last
 * one as `undefined` without complaint), so `#/components/schemas/Nope` would pass unnoticed.
 * Resolved by the reader the site draws with, so what is reported broken is what a page cannot
 * show. Worded as the validator words its own, so the two lists merge without repeats.
 */
export function brokenLocalRefs(document: unknown): ProcessingIssue[] {
  const reader = new SpecReader(document);
  const issues = new Map<string, ProcessingIssue>();
  someRef(document, (ref) => {
    if (ref.startsWith('#/') && !issues.has(ref) && reader.at(ref) === undefined)
      issues.set(ref, { code: 'INVALID_REFERENCE', message: `Can't resolve reference: ${ref}` });
    return false;
  });
  return [...issues.values()];
}

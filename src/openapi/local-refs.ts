import type { ProcessingIssue } from './document.js';

/**
 * The local refs (`#/components/schemas/Pet`) of a document that point at nothing. The parser's
 * validator reports a ref only when a step before its last one is missing (it reads the last
 * one as `undefined` without complaint), so `#/components/schemas/Nope` would pass unnoticed.
 * Worded as the validator words its own, so the two lists merge without repeats.
 */
export function brokenLocalRefs(document: unknown): ProcessingIssue[] {
  const issues = new Map<string, ProcessingIssue>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    const ref = record.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/') && !issues.has(ref) && !resolves(document, ref)) {
      issues.set(ref, { code: 'INVALID_REFERENCE', message: `Can't resolve reference: ${ref}` });
    }
    for (const key in record) stack.push(record[key]);
  }
  return [...issues.values()];
}

function resolves(document: unknown, ref: string): boolean {
  let node = document;
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return false;
    }
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return node !== undefined;
}

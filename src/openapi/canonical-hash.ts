import { createHash } from 'node:crypto';

/**
 * SHA-256 of a JSON value's canonical form (the output of content/canonical-json: keys sorted,
 * undefined left out), computed while walking it: a processed specification can be tens of
 * megabytes, and building its canonical text as one string (of strings of strings) first would
 * copy it once per nesting level.
 */
export function canonicalHash(value: unknown): string {
  const hash = createHash('sha256');
  let pending = '';
  const write = (piece: string) => {
    pending += piece;
    if (pending.length > 1 << 16) {
      hash.update(pending);
      pending = '';
    }
  };
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') {
      write(JSON.stringify(node) ?? 'null');
      return;
    }
    if (Array.isArray(node)) {
      write('[');
      node.forEach((item, i) => {
        if (i > 0) write(',');
        walk(item === undefined ? null : item);
      });
      write(']');
      return;
    }
    const keys = Object.keys(node)
      .filter((key) => (node as Record<string, unknown>)[key] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    write('{');
    keys.forEach((key, i) => {
      write(i > 0 ? `,${JSON.stringify(key)}:` : `${JSON.stringify(key)}:`);
      walk((node as Record<string, unknown>)[key]);
    });
    write('}');
  };
  walk(value);
  hash.update(pending);
  return hash.digest('hex');
}

/**
 * JSON text of values taken from a spec (examples, defaults, enum values). `JSON.stringify`
 * would write a 5 MB example whole and throw on a cyclic object handed in by a hook: this one
 * stops at `maxChars` (ending in `…`) and at `maxDepth`.
 */

export interface JsonTextOptions {
  /** Spaces per level; 0 writes one line. */
  indent?: number;
  maxChars?: number;
  maxDepth?: number;
}

class Full extends Error {}

export function jsonText(value: unknown, options: JsonTextOptions = {}): string {
  const { indent = 2, maxChars = 20_000, maxDepth = 24 } = options;
  let out = '';
  const onPath: object[] = [];
  const write = (piece: string): void => {
    out += piece;
    if (out.length > maxChars) throw new Full();
  };
  const newline = (level: number): string => (indent > 0 ? `\n${' '.repeat(indent * level)}` : '');
  const gap = indent > 0 ? ' ' : '';

  const scalar = (v: unknown): string | undefined => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'string') return JSON.stringify(v.length > maxChars ? v.slice(0, maxChars) : v);
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
    if (typeof v === 'boolean') return String(v);
    return typeof v === 'object' ? undefined : 'null';
  };

  const visit = (v: unknown, level: number): void => {
    const simple = scalar(v);
    if (simple !== undefined) {
      write(simple);
      return;
    }
    const node = v as object;
    if (level >= maxDepth || onPath.includes(node)) {
      write(Array.isArray(node) ? '[…]' : '{…}');
      return;
    }
    onPath.push(node);
    try {
      if (Array.isArray(node)) {
        write('[');
        for (let i = 0; i < node.length; i++) {
          if (i > 0) write(',');
          write(newline(level + 1));
          visit(node[i], level + 1);
        }
        write(node.length === 0 ? ']' : `${newline(level)}]`);
      } else {
        let first = true;
        write('{');
        for (const key in node) {
          if (!Object.hasOwn(node, key)) continue;
          if (!first) write(',');
          first = false;
          write(`${newline(level + 1)}${JSON.stringify(key)}:${gap}`);
          visit((node as Record<string, unknown>)[key], level + 1);
        }
        write(first ? '}' : `${newline(level)}}`);
      }
    } finally {
      onPath.pop();
    }
  };

  try {
    visit(value, 0);
    return out;
  } catch (error) {
    if (error instanceof Full) return `${out.slice(0, maxChars)}…`;
    throw error;
  }
}

/** Strings as they are (a pattern or an enum value reads better unquoted), anything else as JSON. */
export function valueText(value: unknown, maxChars = 300): string {
  if (typeof value === 'string') return value.length > maxChars ? `${value.slice(0, maxChars)}…` : value;
  return jsonText(value, { indent: 0, maxChars });
}

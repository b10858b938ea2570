/**
 * Every `$ref` string of a JSON document, depth first without recursion (a spec may nest
 * deeper than the stack allows), until `stop` answers true; answers whether it did.
 */
export function someRef(value: unknown, stop: (ref: string) => boolean): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && stop(record.$ref)) return true;
    for (const key in record) stack.push(record[key]);
  }
  return false;
}

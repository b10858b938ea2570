import { diff3Merge } from 'node-diff3';

/** A clean merge gives the text; a clash says, for a person, which base lines both sides touched. */
export type BodyMerge = { ok: true; text: string } | { ok: false; clash: string };

/**
 * Line-based three-way merge of markdown. Splitting on '\n' alone keeps every byte (a '\r' stays
 * on its line, a final newline becomes a last empty line), so joining gives the text back exactly.
 */
export function mergeText(base: string, ours: string, theirs: string): BodyMerge {
  const regions = diff3Merge(ours.split('\n'), base.split('\n'), theirs.split('\n'));
  const lines: string[] = [];
  const changed: string[] = [];
  const added: string[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      const { oIndex, o } = region.conflict;
      if (o.length > 0) changed.push(lineRange(oIndex, o.length));
      else added.push(oIndex === 0 ? 'at the start' : `after line ${oIndex}`);
    }
  }
  if (changed.length === 0 && added.length === 0) return { ok: true, text: lines.join('\n') };
  const parts: string[] = [];
  if (changed.length > 0) parts.push(`changed ${joinList(changed)}`);
  if (added.length > 0) parts.push(`added lines ${joinList(added)}`);
  return { ok: false, clash: parts.join(' and ') };
}

/** Base-text lines, 1-based, as a person reads them. */
function lineRange(index: number, count: number): string {
  return count === 1 ? `line ${index + 1}` : `lines ${index + 1}-${index + count}`;
}

function joinList(items: string[]): string {
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

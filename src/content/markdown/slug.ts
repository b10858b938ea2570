/**
 * Heading ids, as GitBook makes them: lowercase ASCII, words joined by `-`, repeated headings
 * numbered (`setup`, `setup-1`). Both directions walk headings in the same order with the same
 * slugger, so an id equal to the generated one needs no markup in markdown.
 */

export const HEADING_ID = /^[-a-z0-9.+_]+$/;

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9._+-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}

export class Slugger {
  private readonly seen = new Set<string>();
  private readonly taken: string[] = [];

  /** The next id for a heading with this text, or undefined when the text has no slug. */
  slug(text: string): string | undefined {
    const base = slugify(text);
    if (!base) return undefined;
    let id = base;
    for (let n = 1; this.seen.has(id); n++) id = `${base}-${n}`;
    this.seen.add(id);
    this.taken.push(id);
    return id;
  }

  /** A point to go back to when a block that took ids turns out not to convert. */
  mark(): number {
    return this.taken.length;
  }

  rewind(mark: number): void {
    while (this.taken.length > mark) this.seen.delete(this.taken.pop()!);
  }
}

import type {
  Annotation,
  Inline,
  InlineNode,
  Leaf,
  Link,
  Mark,
  Text,
} from '../content/markdown/document-types.js';
import { type Item, leaf, MARK_ORDER, pack } from '../content/markdown/inline-parts.js';

/**
 * Inline content as a string a translation service can work on: text with numbered `<x>` tags
 * standing for marks, links and annotations (pairs around their text) and for what must come
 * back unchanged (self-closing: inline code, keys, expressions, emoji, images...). Each tag
 * remembers what it stood for, so a translated string turns back into nodes.
 */

/** What a tag stands for. */
export type Holder =
  | { kind: 'mark'; mark: Mark }
  | { kind: 'container'; node: Link | Annotation }
  | { kind: 'leaf'; text: string; own: Mark[] }
  | { kind: 'inline'; node: Inline };

export interface Encoded {
  text: string;
  holders: Map<number, Holder>;
  /** Whether any letter is left to translate once tags are set aside. */
  hasLetters: boolean;
}

/** Marks whose text is code or a key name: never translated, restored as they were. */
const VERBATIM = new Set<string>(['code', 'keyboard']);
/** Link text that is itself an address reads the same in every language. */
const ADDRESS = /^\s*(?:[a-z][a-z0-9+.-]*:\/\/|mailto:|www\.)\S*\s*$|^\s*[^\s@]+@[^\s@]+\.[a-z]{2,}\s*$/i;
const LETTER = /\p{L}/u;

export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Undoes `escapeText`, and the few references services in HTML mode write on their own. */
export function unescapeText(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi, (entity, dec, hex, name) => {
    if (name) return NAMED[name.toLowerCase()] ?? entity;
    const code = dec ? Number(dec) : Number.parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

const markKey = (mark: Mark): string => JSON.stringify(mark);

interface Atom {
  /** Marks the atom sits in; null for void inlines, which marks do not apply to. */
  marks: Mark[] | null;
  emit(open: ReadonlySet<string>): void;
}

/** The inline nodes of one block (or of a link or annotation inside it) as a tagged string. */
export function encodeInlines(nodes: readonly InlineNode[]): Encoded {
  const out: string[] = [];
  const holders = new Map<number, Holder>();
  let hasLetters = false;
  const tag = (holder: Holder): number => {
    const id = holders.size + 1;
    holders.set(id, holder);
    return id;
  };

  const level = (children: readonly InlineNode[], outer: ReadonlySet<string>): void => {
    const atoms: Atom[] = [];
    const own = (marks: readonly Mark[]) => marks.filter((m) => !outer.has(markKey(m)));
    for (const node of children) {
      if (node.object === 'text') {
        for (const { text, marks } of node.leaves) {
          if (text === '') continue;
          const verbatim = marks.filter((m) => VERBATIM.has(m.type));
          const rest = own(marks.filter((m) => !VERBATIM.has(m.type)));
          if (verbatim.length > 0) {
            atoms.push({
              marks: rest,
              emit: () => out.push(`<x id="${tag({ kind: 'leaf', text, own: verbatim })}"/>`),
            });
            continue;
          }
          if (LETTER.test(text)) hasLetters = true;
          // Services in HTML or XML mode fold line breaks into spaces; a tag they keep.
          for (const part of text.split(/(\n)/)) {
            if (part === '\n')
              atoms.push({
                marks: rest,
                emit: () => out.push(`<x id="${tag({ kind: 'leaf', text: part, own: [] })}"/>`),
              });
            else if (part !== '') atoms.push({ marks: rest, emit: () => out.push(escapeText(part)) });
          }
        }
      } else if ((node.type === 'link' || node.type === 'annotation') && translatable(node)) {
        atoms.push({
          // Marks shared by all its text may open outside the tag; the rest open inside it.
          marks: own(commonMarks(node.nodes)),
          emit: (open) => {
            out.push(`<x id="${tag({ kind: 'container', node })}">`);
            level(node.nodes, open);
            out.push('</x>');
          },
        });
      } else {
        atoms.push({ marks: null, emit: () => out.push(`<x id="${tag({ kind: 'inline', node })}"/>`) });
      }
    }
    nest(atoms, outer, out, (mark) => tag({ kind: 'mark', mark }));
  };

  level(nodes, new Set());
  return { text: out.join(''), holders, hasLetters };
}

/**
 * Opens and closes mark tags around atoms so that tags nest: a mark that runs longer opens
 * first (outside), so `**bold _nested_ italic**` reads `<x id="1">bold <x id="2">nested</x> italic</x>`.
 */
function nest(atoms: Atom[], outer: ReadonlySet<string>, out: string[], tag: (mark: Mark) => number): void {
  const stack: string[] = [];
  atoms.forEach((atom, i) => {
    if (atom.marks) {
      const wanted = new Map(atom.marks.map((m) => [markKey(m), m]));
      const keep = stack.findIndex((key) => !wanted.has(key));
      if (keep >= 0) {
        for (let n = stack.length - keep; n > 0; n--) out.push('</x>');
        stack.length = keep;
      }
      const opening = [...wanted.values()].filter((m) => !stack.includes(markKey(m)));
      opening.sort((a, b) => run(atoms, i, b) - run(atoms, i, a) || rank(a) - rank(b));
      for (const mark of opening) {
        out.push(`<x id="${tag(mark)}">`);
        stack.push(markKey(mark));
      }
    }
    atom.emit(new Set([...outer, ...stack]));
  });
  for (let n = stack.length; n > 0; n--) out.push('</x>');
}

/** How many atoms from `start` on carry `mark` (void inlines do not break a run). */
function run(atoms: readonly Atom[], start: number, mark: Mark): number {
  const key = markKey(mark);
  let length = 0;
  for (let i = start; i < atoms.length; i++) {
    const marks = atoms[i]!.marks;
    if (marks && !marks.some((m) => markKey(m) === key)) break;
    length++;
  }
  return length;
}

const rank = (mark: Mark): number => MARK_ORDER.indexOf(mark.type);

function commonMarks(nodes: readonly InlineNode[]): Mark[] {
  const leaves = nodes.flatMap((n) => (n.object === 'text' ? n.leaves.filter((l) => l.text !== '') : []));
  const [first, ...rest] = leaves;
  if (!first) return [];
  return first.marks.filter(
    (m) => !VERBATIM.has(m.type) && rest.every((l: Leaf) => l.marks.some((o) => markKey(o) === markKey(m))),
  );
}

/** A link or annotation whose visible text is words (not empty, not an address). */
function translatable(node: Link | Annotation): boolean {
  const text = node.nodes
    .map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : ''))
    .join('');
  if (text.trim() === '') return false;
  return !(node.type === 'link' && (ADDRESS.test(text) || namesItsTarget(text, node.data.ref)));
}

/** `[lumen.dev](https://lumen.dev/)`: the text is the address, written shorter. */
function namesItsTarget(text: string, ref: Link['data']['ref']): boolean {
  if (ref.kind !== 'url') return false;
  const bare = (value: string) =>
    value
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\/(www\.)?|^www\./, '')
      .replace(/\/$/, '');
  const target = bare(ref.url);
  return bare(text) === target || bare(text) === target.split('/')[0];
}

/** A tagged string read as a tree; `problem` says why it could not be. */
export type Tagged =
  | { type: 'text'; value: string }
  | { type: 'pair'; id: number; children: Tagged[] }
  | { type: 'void'; id: number };

const TAG = /<\/?x(?=[\s/>])[^<>]*>/gi;
const OPEN = /^<x\s+id\s*=\s*(["']?)(\d+)\1\s*(\/?)\s*>$/i;
const CLOSE = /^<\/x\s*>$/i;

export function parseTagged(source: string): { tree: Tagged[]; problem?: string } {
  const root: Tagged[] = [];
  const stack: Array<{ id: number; children: Tagged[] }> = [];
  const current = () => stack.at(-1)?.children ?? root;
  let at = 0;
  const text = (end: number) => {
    if (end > at) current().push({ type: 'text', value: unescapeText(source.slice(at, end)) });
  };
  for (const match of source.matchAll(TAG)) {
    text(match.index);
    at = match.index + match[0].length;
    const open = OPEN.exec(match[0]);
    if (open) {
      const id = Number(open[2]);
      if (open[3]) current().push({ type: 'void', id });
      else {
        const pair: Tagged = { type: 'pair', id, children: [] };
        current().push(pair);
        stack.push(pair);
      }
    } else if (CLOSE.test(match[0])) {
      if (!stack.pop()) return { tree: root, problem: 'a closing </x> has no opening tag' };
    } else return { tree: root, problem: `malformed placeholder ${match[0]}` };
  }
  text(source.length);
  const unclosed = stack.at(-1);
  if (unclosed) return { tree: root, problem: `<x id="${unclosed.id}"> is not closed` };
  return { tree: root };
}

interface Shape {
  kind: 'pair' | 'void';
  /** The id of the pair around it, 0 at the top. */
  parent: number;
}

function shapes(tree: readonly Tagged[], parent: number, into: Map<number, Shape>, twice: Set<number>): void {
  for (const node of tree) {
    if (node.type === 'text') continue;
    if (into.has(node.id)) twice.add(node.id);
    into.set(node.id, { kind: node.type, parent });
    if (node.type === 'pair') shapes(node.children, node.id, into, twice);
  }
}

const show = (id: number, shape: Shape | undefined) =>
  shape?.kind === 'void' ? `<x id="${id}"/>` : `<x id="${id}">`;

/** Why `translated` cannot replace `source` (placeholders missing, extra, renumbered, badly nested), or undefined. */
export function placeholderProblem(source: string, translated: string): string | undefined {
  const parsed = parseTagged(translated);
  if (parsed.problem) return `badly nested: ${parsed.problem}`;
  const expected = new Map<number, Shape>();
  const found = new Map<number, Shape>();
  const twice = new Set<number>();
  shapes(parseTagged(source).tree, 0, expected, new Set());
  shapes(parsed.tree, 0, found, twice);
  const [repeated] = twice;
  if (repeated !== undefined) return `${show(repeated, found.get(repeated))} appears more than once`;
  const missing = [...expected.keys()].filter((id) => !found.has(id));
  const extra = [...found.keys()].filter((id) => !expected.has(id));
  const list = (ids: number[], from: Map<number, Shape>) =>
    ids.map((id) => show(id, from.get(id))).join(', ');
  if (missing.length > 0 && extra.length > 0)
    return `placeholders renumbered: ${list(missing, expected)} missing, ${list(extra, found)} not in the source`;
  if (missing.length > 0) return `placeholder missing: ${list(missing, expected)}`;
  if (extra.length > 0) return `placeholder not in the source: ${list(extra, found)}`;
  for (const [id, shape] of expected) {
    const other = found.get(id)!;
    if (other.kind !== shape.kind)
      return shape.kind === 'void'
        ? `<x id="${id}"/> must stay self-closing`
        : `<x id="${id}"> must stay a pair`;
    if (other.parent !== shape.parent)
      return `badly nested: ${show(id, shape)} belongs ${shape.parent ? `inside <x id="${shape.parent}">` : 'outside any tag'}`;
  }
  return undefined;
}

/**
 * Inline nodes from a translated string whose placeholders match (see `placeholderProblem`):
 * every tag back to what it stood for, text between tags as the translation wrote it.
 */
export function decodeInlines(
  translated: string,
  holders: ReadonlyMap<number, Holder>,
  before: readonly InlineNode[],
): InlineNode[] {
  const build = (tree: readonly Tagged[], marks: readonly Mark[], out: Item[]): void => {
    for (const node of tree) {
      if (node.type === 'text') {
        out.push(leaf(node.value, [...marks]));
        continue;
      }
      const holder = holders.get(node.id)!;
      if (holder.kind === 'leaf') out.push(leaf(holder.text, [...marks, ...holder.own]));
      else if (holder.kind === 'inline') out.push(holder.node);
      else if (node.type !== 'pair') continue;
      else if (holder.kind === 'mark') build(node.children, [...marks, holder.mark], out);
      else {
        const inner: Item[] = [];
        build(node.children, marks, inner);
        out.push({ ...holder.node, nodes: keepKeys(pack(inner), holder.node.nodes) } as Item);
      }
    }
  };
  const items: Item[] = [];
  build(parseTagged(translated).tree, [], items);
  return keepKeys(pack(items), before);
}

/** Text nodes take the keys of the text nodes they replace, in order, so editors keep their place. */
function keepKeys<T extends InlineNode>(nodes: T[], before: readonly InlineNode[]): T[] {
  const keys = before.filter((n): n is Text => n.object === 'text').map((n) => n.key);
  let i = 0;
  for (const node of nodes) {
    if (node.object !== 'text') continue;
    const key = keys[i++];
    if (key !== undefined) (node as Text).key = key;
  }
  return nodes;
}

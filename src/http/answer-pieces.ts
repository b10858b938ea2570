import fastJsonStringify from 'fast-json-stringify';

/** A schema's serializer (fast-json-stringify): the whole answer as one text. */
type Write = (data: unknown) => string;

/** Appends to `into` texts whose concatenation is the value serialized. */
type WriteParts = (data: unknown, into: string[]) => void;

/**
 * Characters of an answer made as one text; a longer one is encoded in pieces. Under 128 KB
 * however many bytes a character takes.
 *
 * V8 keeps a string of 128 KB or more apart from the others (its large-object space), and on this
 * machine (Node 20) making one there and encoding it cost about 1.3 ms more than a string just
 * under: a search's answer serialized with JSON.stringify and encoded, 55 hits (61,000 characters,
 * two bytes each in V8) 0.21 ms, 60 hits (68,000) 0.97 ms, 100 hits 1.30 ms; made of ASCII
 * characters alone (one byte each), 127,000 characters 0.27 ms, 139,000 1.72 ms.
 */
const ONE_TEXT_CHARS = 64 * 1024 - 1;

/**
 * Characters of a long answer's text encoded at a time (its parts' texts joined). Pieces of
 * 4,096 serialized and encoded a search's 100 hits in 0.52-0.86 ms, of 16,384 in 0.88-1.26 ms
 * (each against 1.7-2.2 ms in one piece, in the same runs).
 */
const PIECE_CHARS = 4096;

/** A list inside an answer's items shorter than this is written with its item, in one text. */
const SPLIT_FROM = 8;

/**
 * A serializer writing the same bytes as `whole`, that makes a long answer (a search's 100 hits,
 * an organization's search whose hits are all in one space) without any text of 128 KB or more:
 * a list of objects that is the first or last property of an object (`listOf`'s `items`, a space
 * result's `pages`) is written an item at a time, each with its own serializer, and an answer
 * past ONE_TEXT_CHARS goes as bytes encoded a few items at a time. Undefined for a schema with
 * no such list.
 */
export function piecewiseSerializer(
  schema: unknown,
  whole: Write,
): ((data: unknown) => string | Buffer) | undefined {
  const parts = answerParts(schema, whole);
  if (!parts) return undefined;
  return (data) => {
    const texts = parts(data);
    if (texts.length === 1) return texts[0]!;
    let chars = 0;
    for (const text of texts) chars += text.length;
    return chars <= ONE_TEXT_CHARS ? texts.join('') : inPieces(texts);
  };
}

/** The texts an answer is made of, one after the other (`piecewiseSerializer`); undefined as it is. */
export function answerParts(schema: unknown, whole: Write): ((data: unknown) => string[]) | undefined {
  const parts = partsWriter(schema, whole, 1);
  if (!parts) return undefined;
  return (data) => {
    const texts: string[] = [];
    parts(data, texts);
    return texts;
  };
}

/** The texts encoded PIECE_CHARS or so at a time, joined into one buffer. */
function inPieces(texts: string[]): Buffer {
  const pieces: Buffer[] = [];
  let from = 0;
  let length = 0;
  for (let i = 0; i < texts.length; i++) {
    length += texts[i]!.length;
    if (length < PIECE_CHARS && i < texts.length - 1) continue;
    pieces.push(Buffer.from(texts.slice(from, i + 1).join('')));
    from = i + 1;
    length = 0;
  }
  return Buffer.concat(pieces);
}

/** The list property a schema's answers are split at: its first or its last, a list of objects. */
interface Split {
  /** How the property is written, empty: `"items":[]`. */
  marker: string;
  name: string;
  first: boolean;
  item: object;
}

function splitOf(schema: unknown): Split | undefined {
  const { type, properties } = schema as { type?: unknown; properties?: Record<string, unknown> };
  if (type !== 'object' || typeof properties !== 'object' || properties === null) return undefined;
  const names = Object.keys(properties);
  for (const [name, first] of [
    [names[0], true],
    [names.at(-1), false],
  ] as const) {
    if (name === undefined) continue;
    const property = properties[name] as { type?: unknown; items?: { type?: unknown } } | undefined;
    if (property?.type === 'array' && property.items?.type === 'object')
      return { marker: `${JSON.stringify(name)}:[]`, name, first, item: property.items };
  }
  return undefined;
}

function compiled(schema: object): Write {
  return fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as Write;
}

/**
 * The parts of a value of `schema`, split at its list when it holds `least` items or more;
 * undefined for a schema without a list to split at. `write` is the schema's serializer, made on
 * first use when not given (an item's schema: most lists are never long).
 */
function partsWriter(schema: unknown, write: Write | undefined, least: number): WriteParts | undefined {
  const split = splitOf(schema);
  if (!split) return undefined;
  let item: WriteParts | undefined;
  return (data, into) => {
    write ??= compiled(schema as object);
    const list = (data as Record<string, unknown> | null | undefined)?.[split.name];
    if (!Array.isArray(list) || list.length < least) {
      into.push(write(data));
      return;
    }
    // The value with its list empty, as the schema's serializer writes it: what goes around the items.
    const empty = write({ ...(data as object), [split.name]: [] });
    let head: string;
    let tail: string;
    if (split.first && empty.startsWith(`{${split.marker}`)) {
      head = `{${split.marker.slice(0, -1)}`;
      tail = empty.slice(head.length);
    } else if (!split.first && empty.endsWith(`${split.marker}}`)) {
      head = empty.slice(0, -2);
      tail = ']}';
    } else {
      // Written otherwise (properties beyond those declared come last): whole.
      into.push(write(data));
      return;
    }
    if (!item) {
      const writeItem = compiled(split.item);
      item =
        partsWriter(split.item, writeItem, SPLIT_FROM) ?? ((value, texts) => texts.push(writeItem(value)));
    }
    into.push(head);
    for (let i = 0; i < list.length; i++) {
      if (i > 0) into.push(',');
      item(list[i], into);
    }
    into.push(tail);
  };
}

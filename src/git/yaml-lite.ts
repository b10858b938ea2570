/**
 * The small part of YAML that GitBook's git format uses (`.gitbook.yaml` and page front
 * matter): nested mappings by indentation, plain and quoted scalars, booleans, numbers, and
 * folded (`>-`) or literal (`|`) block scalars. Anything else (sequences, anchors, flow
 * collections) is refused with the line it is on, rather than guessed at.
 */

export type YamlValue = string | number | boolean | null | YamlMap;
export interface YamlMap {
  [key: string]: YamlValue;
}

export class YamlError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'YamlError';
  }
}

interface Line {
  no: number;
  indent: number;
  text: string;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#'"][^:#]*?)\s*:(?:\s+(.*))?$/;

export function parseYaml(source: string): YamlMap {
  const lines: Line[] = source.split(/\r?\n/).map((raw, i) => ({
    no: i + 1,
    indent: raw.length - raw.trimStart().length,
    text: raw.trim(),
  }));
  let pos = 0;

  const skipBlank = () => {
    while (pos < lines.length && (lines[pos]!.text === '' || lines[pos]!.text.startsWith('#'))) pos++;
  };

  const blockScalar = (style: string, parentIndent: number): string => {
    const body: string[] = [];
    let indent = -1;
    while (pos < lines.length) {
      const line = lines[pos]!;
      if (line.text !== '' && line.indent <= parentIndent) break;
      if (line.text !== '' && indent < 0) indent = line.indent;
      body.push(line.text === '' ? '' : ' '.repeat(Math.max(0, line.indent - indent)) + line.text);
      pos++;
    }
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    const keep = style.endsWith('+');
    const strip = style.endsWith('-');
    let text: string;
    if (style.startsWith('|')) text = body.join('\n');
    else {
      // Folded: single line breaks become spaces, blank lines stay line breaks.
      text = '';
      for (const [i, part] of body.entries()) {
        if (i === 0) text = part;
        else if (part === '') text += '\n';
        else text += text.endsWith('\n') || text === '' ? part : ` ${part}`;
      }
    }
    return strip || text === '' ? text : keep ? `${text}\n` : `${text}\n`;
  };

  const map = (indent: number): YamlMap => {
    const out: YamlMap = {};
    for (;;) {
      skipBlank();
      if (pos >= lines.length) return out;
      const line = lines[pos]!;
      if (line.indent < indent) return out;
      if (line.indent > indent) throw new YamlError(line.no, 'unexpected indentation');
      if (line.text.startsWith('- ') || line.text === '-')
        throw new YamlError(line.no, 'lists are not supported here');
      const match = KEY.exec(line.text);
      if (!match) throw new YamlError(line.no, `expected "key: value", got "${line.text}"`);
      const key = scalarText(match[1]!, line.no);
      const rest = stripComment(match[2] ?? '');
      pos++;
      if (rest === '') {
        skipBlank();
        const next = lines[pos];
        out[key] = next && next.indent > indent ? map(next.indent) : null;
      } else if (/^[>|][+-]?$/.test(rest)) {
        out[key] = blockScalar(rest, indent);
      } else {
        out[key] = scalar(rest, line.no);
      }
    }
  };

  const result = map(0);
  skipBlank();
  if (pos < lines.length) throw new YamlError(lines[pos]!.no, 'unexpected indentation');
  return result;
}

function stripComment(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) return value.trim();
  const hash = value.search(/\s#/);
  return (hash >= 0 ? value.slice(0, hash) : value).trim();
}

function scalarText(raw: string, line: number): string {
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new YamlError(line, `bad double-quoted string ${raw}`);
    }
  }
  if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  return raw.trim();
}

function scalar(raw: string, line: number): YamlValue {
  if (raw.startsWith('"') || raw.startsWith("'")) {
    const quote = raw[0]!;
    if (raw.length < 2 || !raw.endsWith(quote)) throw new YamlError(line, `unterminated string ${raw}`);
    return scalarText(raw, line);
  }
  if (raw.startsWith('[') || raw.startsWith('{') || raw.startsWith('&') || raw.startsWith('*'))
    throw new YamlError(line, `unsupported YAML value ${raw}`);
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  if (/^(null|Null|NULL|~)$/.test(raw)) return null;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

/** Writes a mapping the way GitBook does: two-space indentation, long text folded (`>-`). */
export function writeYaml(value: YamlMap, indent = 0): string {
  let out = '';
  const pad = ' '.repeat(indent);
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (item !== null && typeof item === 'object') {
      out += `${pad}${key}:\n${writeYaml(item, indent + 2)}`;
    } else if (typeof item === 'string' && (item.includes('\n') || item.length > 80)) {
      const style = item.endsWith('\n') ? '|' : '>-';
      if (style === '|') {
        const body = item.slice(0, -1).split('\n');
        out += `${pad}${key}: |\n${body.map((l) => (l ? `${pad}  ${l}` : '')).join('\n')}\n`;
      } else if (item.includes('\n')) {
        out += `${pad}${key}: |-\n${item
          .split('\n')
          .map((l) => (l ? `${pad}  ${l}` : ''))
          .join('\n')}\n`;
      } else {
        out += `${pad}${key}: >-\n${pad}  ${item}\n`;
      }
    } else {
      out += `${pad}${key}: ${scalarOut(item)}\n`;
    }
  }
  return out;
}

function scalarOut(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value !== 'string') return String(value);
  const plain =
    value !== '' &&
    !/^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) &&
    !/:\s|\s#|\s$/.test(value) &&
    !/^(true|false|null|~|-?\d+(\.\d+)?)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

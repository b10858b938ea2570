import { createRequire } from 'node:module';

/**
 * Font Awesome icons named in documents (hints, tabs, steps, buttons, inline icons: GitBook
 * stores Font Awesome names such as `rocket` or `github`), drawn as inline SVG on the server
 * from the free icon sets. The sets are large (~2 MB of JavaScript), so they are loaded on the
 * first lookup, not at startup. A name the free sets lack (GitBook also offers Pro icons) is
 * drawn as a neutral dot of the same size, so the layout never moves.
 */

interface IconDefinition {
  iconName: string;
  /** `[width, height, aliases, unicode, path or [secondary, primary]]`. */
  icon: [number, number, Array<string | number>, string, string | string[]];
}

type IconPack = Record<string, IconDefinition>;

const require = createRequire(import.meta.url);

/** Pro-only names GitBook content uses often, drawn with the closest free icon. */
const SUBSTITUTES: Record<string, string> = {
  'hand-wave': 'hand',
  sparkles: 'wand-magic-sparkles',
  'rocket-launch': 'rocket',
  'rectangle-terminal': 'terminal',
  'book-open-cover': 'book-open',
  'gear-complex': 'gear',
  'memo-circle-info': 'circle-info',
  'square-terminal': 'terminal',
  books: 'book',
  'bullseye-arrow': 'bullseye',
  'message-bot': 'robot',
  'shield-check': 'shield-halved',
};

let byName: Map<string, IconDefinition> | undefined;

function loadIcons(): Map<string, IconDefinition> {
  const map = new Map<string, IconDefinition>();
  // Regular first (GitBook's default look), then solid, then brand logos.
  const packs: IconPack[] = [
    (require('@fortawesome/free-regular-svg-icons') as { far: IconPack }).far,
    (require('@fortawesome/free-solid-svg-icons') as { fas: IconPack }).fas,
    (require('@fortawesome/free-brands-svg-icons') as { fab: IconPack }).fab,
  ];
  for (const pack of packs) {
    for (const definition of Object.values(pack)) {
      if (!map.has(definition.iconName)) map.set(definition.iconName, definition);
    }
  }
  // Aliases (`cog` for `gear`) never shadow a real name of any pack.
  for (const pack of packs) {
    for (const definition of Object.values(pack)) {
      for (const alias of definition.icon[2]) {
        if (typeof alias === 'string' && !map.has(alias)) map.set(alias, definition);
      }
    }
  }
  return map;
}

/** Font Awesome names are kebab-case; GitBook sometimes keeps the `fa-` prefix. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function normalize(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const clean = name.trim().toLowerCase().replace(/^fa-/, '');
  return clean.length <= 60 && NAME.test(clean) ? clean : undefined;
}

/** The icon's definition, or undefined for a name none of the free sets has. */
export function findFaIcon(name: unknown): IconDefinition | undefined {
  const clean = normalize(name);
  if (clean === undefined) return undefined;
  byName ??= loadIcons();
  return (
    byName.get(clean) ?? (Object.hasOwn(SUBSTITUTES, clean) ? byName.get(SUBSTITUTES[clean]!) : undefined)
  );
}

/** Paths only contain path data (letters, digits, signs, spaces): checked anyway. */
const PATH_DATA = /^[MmZzLlHhVvCcSsQqTtAaEe0-9.,\s+-]*$/;

/**
 * An inline SVG for a Font Awesome name: decoration, hidden from assistive technology (the
 * element around it carries any label). Unknown names give a small neutral circle.
 */
export function faIcon(name: unknown, className = ''): string {
  const classes = `fa-icon${className ? ` ${className}` : ''}`;
  const definition = findFaIcon(name);
  const [width, height, , , data] = definition?.icon ?? [0, 0, [], '', ''];
  const paths = (Array.isArray(data) ? data : [data]).filter(
    (d): d is string => typeof d === 'string' && d !== '' && PATH_DATA.test(d),
  );
  if (!definition || paths.length === 0 || !(width > 0 && height > 0)) {
    return `<svg class="${classes} fa-missing" viewBox="0 0 16 16" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false"><circle cx="8" cy="8" r="3.5"/></svg>`;
  }
  const body = paths.map((d, i) => `<path${paths.length > 1 && i === 0 ? ' opacity=".4"' : ''} d="${d}"/>`);
  const w = Math.round(width);
  const h = Math.round(height);
  // As tall as the text, as wide as the glyph's own proportions.
  const em = Number((w / h).toFixed(3));
  return `<svg class="${classes}" viewBox="0 0 ${w} ${h}" width="${em}em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">${body.join('')}</svg>`;
}

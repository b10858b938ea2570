import path from 'node:path/posix';
import type { PageLinksTable } from '../db/tables.js';

/**
 * What a link written in a page points at, decided from its href alone (the target may not
 * exist, which is then a broken link, decided when links are read against a revision):
 * - `http(s):`, `mailto:` and other schemes: a URL;
 * - `#anchor`: an anchor of the same page;
 * - a path (relative to the page, or from the space's top with a leading `/`): a page, its
 *   `.md` suffix and a final `README` optional, as GitBook's git format writes them;
 * - a path into `.gitbook/assets/`: a file, by name.
 */
export type LinkTarget = Pick<PageLinksTable, 'target_kind' | 'target' | 'anchor'>;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** `folder`: the page has pages below it, so relative links start from it (its README), not its parent. */
export function classifyHref(href: string, pagePath: string, folder = false): LinkTarget {
  const trimmed = href.trim();
  if (SCHEME.test(trimmed) || trimmed.startsWith('//'))
    return { target_kind: 'url', target: trimmed, anchor: null };
  const hash = trimmed.indexOf('#');
  const pathPart = decodeSafe(hash >= 0 ? trimmed.slice(0, hash) : trimmed);
  const anchor = hash >= 0 ? trimmed.slice(hash + 1) || null : null;
  if (pathPart === '') return { target_kind: 'anchor', target: '', anchor };

  const assets = pathPart.lastIndexOf('.gitbook/assets/');
  if (assets >= 0)
    return { target_kind: 'file', target: pathPart.slice(assets + '.gitbook/assets/'.length), anchor: null };

  const base = pathPart.startsWith('/') ? '/' : `/${folder ? pagePath : path.dirname(pagePath || '.')}`;
  let resolved = path.normalize(path.join(base, pathPart)).replace(/^\/+|\/+$/g, '');
  resolved = resolved.replace(/\.md$/i, '');
  resolved = resolved.replace(/(^|\/)README$/i, '');
  return { target_kind: 'page', target: resolved, anchor };
}

function decodeSafe(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}

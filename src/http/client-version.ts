import type { Profile } from '../content/markdown/containers.js';

/**
 * The document profile a client reads. The official clients say their version in their
 * User-Agent (`@gitbook/api/0.202.0`): a client of 0.202.0 or later gets the nodes that version
 * added (conditional blocks, columns, updates, prompts); any other caller gets documents valid
 * against both versions Quire implements.
 */
const OFFICIAL = /@gitbook\/api\/(\d+)\.(\d+)\.(\d+)/;

export function documentProfile(userAgent: string | undefined): Profile {
  const match = userAgent ? OFFICIAL.exec(userAgent) : null;
  if (!match) return 'v0146';
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 0 || minor >= 202 ? 'v0202' : 'v0146';
}

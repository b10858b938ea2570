import { describe, expect, it } from 'vitest';
import { spacePages } from '../../../bench/scale/content.js';
import { convertFor, convertProfiles, convertRecording } from '../../../src/areas/content/conversion.js';
import type { Profile } from '../../../src/content/markdown/containers.js';
import { type LinkResolver, plainLinks } from '../../../src/content/markdown/links.js';
import { fixtureTexts, PAGE } from './fixtures.js';

/**
 * The fill of stored documents converts a page for its three profiles from one parse
 * (conversion.ts `convertProfiles`): each document, and the questions asked of the links, must
 * be what converting the markdown for that profile alone gives, whatever the order, so the
 * conversion of one profile must not change the tree the next one reads.
 */

/** Links to pages by their relative path, as a space's tree would resolve them; the rest as plainLinks does. */
const links: LinkResolver = {
  resolve: (href) =>
    /^[\w./-]+\.md(#[\w-]*)?$/.test(href)
      ? { kind: 'page', page: `page-${href.replace(/[^\w]/g, '-')}` }
      : plainLinks.resolve(href),
  href: (ref) => (ref.kind === 'page' ? `/resolved/${ref.page}` : plainLinks.href(ref)),
};

const ORDERS: Profile[][] = [
  ['v0146', 'v0202', 'render'],
  ['render', 'v0202', 'v0146'],
];

const texts: Array<[string, string]> = [
  ...fixtureTexts(),
  ['fixtures.ts PAGE', PAGE],
  ['a custom heading id', '# Title\n\n## Configure <a href="#config" id="config"></a>\n\nText.\n'],
  ['an older custom heading id', '## Setup  <a id="setup"></a>\n\nText.\n'],
  [
    'bench/scale pages',
    spacePages(20, 3)
      .map((page) => page.markdown)
      .join('\n\n'),
  ],
];

describe('converting for every profile from one parse', () => {
  it('reads the GitBook fixtures', () => {
    expect(fixtureTexts().length).toBeGreaterThan(40);
  });

  for (const [name, markdown] of texts)
    it(`answers what each profile's own conversion does: ${name}`, () => {
      for (const order of ORDERS) {
        const together = convertProfiles(markdown, links, order);
        order.forEach((profile, i) => {
          expect(together[i]).toEqual(convertRecording(markdown, links, convertFor(profile)));
        });
      }
    });

  it('keeps a custom heading id in each profile', () => {
    const [first, second] = convertProfiles('## Configure <a href="#config" id="config"></a>\n', links, [
      'v0146',
      'render',
    ]);
    for (const converted of [first, second])
      expect(JSON.stringify(converted?.document)).toContain('"config"');
  });
});

import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/content/markdown/index.js';
import { renderDocument } from '../../src/publish/render/document-html.js';
import { splitSections } from '../../src/search/sections.js';
import { SAMPLE_MARKDOWN } from './publish/sample-site.js';

const links = { page: () => undefined, file: () => undefined, url: (u: string) => u };

describe('cutting a page into sections', () => {
  const markdown = [
    'Welcome to **Acme**: read [the guide](guide.md).',
    '',
    '## Install',
    '',
    'Run `npm install acme`.',
    '',
    '```sh',
    'acme start',
    'acme stop',
    '```',
    '',
    '### Install',
    '',
    'Again, deeper.',
    '',
    '{% hint style="info" %}',
    'Restart after **changes**.',
    '{% endhint %}',
    '',
    '## Configure the proxy <a href="#proxy" id="proxy"></a>',
    '',
    '| Option | Meaning |',
    '| --- | --- |',
    '| `port` | where it listens |',
  ].join('\n');

  it('starts a section at every heading, the text before the first one without an anchor', () => {
    const sections = splitSections(markdown);
    expect(sections.map((s) => [s.anchor, s.heading])).toEqual([
      [null, ''],
      ['install', 'Install'],
      ['install-1', 'Install'],
      ['proxy', 'Configure the proxy'],
    ]);
    expect(sections[0]!.text).toBe('Welcome to Acme: read the guide.');
    // Code lines and blocks stay apart; markup and link targets are gone.
    expect(sections[1]!.text).toBe('Run npm install acme. acme start acme stop');
    expect(sections[2]!.text).toBe('Again, deeper. Restart after changes.');
    expect(sections[3]!.text).toContain('port');
    expect(sections[3]!.text).toContain('where it listens');
    expect(sections[3]!.text).not.toContain('|');
  });

  it('gives the anchors the published page gives its headings', () => {
    for (const md of [markdown, SAMPLE_MARKDOWN]) {
      const { headings } = renderDocument(markdownToDocument(md), links);
      const anchors = splitSections(md)
        .slice(1)
        .map((s) => s.anchor);
      expect(anchors).toEqual(headings.map((h) => h.id));
    }
  });

  it('keeps an empty page as one empty section', () => {
    expect(splitSections('')).toEqual([{ anchor: null, heading: '', text: '' }]);
  });
});

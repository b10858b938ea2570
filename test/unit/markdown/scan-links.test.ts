import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../../src/content/markdown/index.js';
import { TEMPLATES } from '../../../src/content/templates.js';
import { PAGE } from './fixtures.js';
import { parsedLinks } from './parsed-links.js';

/** Pages where a scanner could go wrong: code, escapes, nesting, references, HTML. */
const TRICKY: Record<string, string> = {
  'inline code and fences': [
    'Use `[not](a.md)` but [yes](b.md).',
    '',
    '````md',
    '```',
    '[inside](fence.md)',
    '```',
    '````',
    '',
    '~~~',
    '![neither](x.png)',
    '~~~',
    'After [fence](c.md).',
  ].join('\n'),
  'titles, angle brackets and parentheses': [
    '[titled](page.md "The title") and [single](other.md \'t\') and [angled](<with space.md>).',
    '[parens](wiki/Foo_(bar)) and [escaped](a\\)b.md) and [empty]().',
  ].join('\n'),
  nesting: '[![badge](badge.svg)](https://ci.example.com) then [[bracketed]](x.md).',
  references: [
    'A [full][One], a [collapsed][] and a [shortcut] link; [unknown][nope] is text.',
    '',
    '[one]: first.md',
    '[collapsed]: <second.md>',
    '[Shortcut]: third.md "Title"',
  ].join('\n'),
  autolinks:
    'Visit <https://a.example/x> or https://b.example/path?q=1. Also www.c.example, and mail <mailto:x@y.z>.',
  'html and comments': [
    '<figure><img src="assets/one.png" alt="one"><figcaption><p>Caption</p></figcaption></figure>',
    '',
    '<!--',
    '[hidden](comment.md)',
    '-->',
    '',
    'Visible [link](shown.md) <span>with html</span>.',
  ].join('\n'),
  blocks: [
    '{% hint style="warning" %}',
    'Careful with [this](warn.md).',
    '{% endhint %}',
    '',
    '{% embed url="https://youtu.be/abc" %}',
    'Caption with [link](cap.md)',
    '{% endembed %}',
    '',
    '{% file src="assets/guide.pdf" %}',
    '',
    '{% content-ref url="sub/" %}',
    '[sub](sub/)',
    '{% endcontent-ref %}',
    '',
    '| Col | Link |',
    '| --- | --- |',
    '| a | [cell](cell.md) |',
    '',
    '* [item](item.md)',
    '  * nested ![img](n.png)',
    '> quoted [q](q.md)',
  ].join('\n'),
};

const CORPUS: Array<[string, string]> = [
  ['the realistic page', PAGE],
  ...TEMPLATES.flatMap((template) =>
    template.pages.map((page): [string, string] => [`template ${template.id}/${page.ref}`, page.markdown]),
  ),
  ...Object.entries(TRICKY),
];

describe('extractLinks scans what the parser finds', () => {
  it.each(CORPUS)('%s', (_name, markdown) => {
    expect(extractLinks(markdown)).toEqual(parsedLinks(markdown));
  });

  it('the corpus has links to find', () => {
    expect(CORPUS.reduce((sum, [, markdown]) => sum + parsedLinks(markdown).length, 0)).toBeGreaterThan(30);
  });
});

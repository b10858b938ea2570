import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../src/content/tree.js';
import { parsePageFile, writePageFile } from '../../src/git/front-matter.js';
import { parseGitbookConfig, writeGitbookConfig } from '../../src/git/gitbook-yaml.js';
import { normalizeRelative, parseSummary, SummaryError, writeSummary } from '../../src/git/summary.js';

describe('SUMMARY.md', () => {
  const text = [
    '# Table of contents',
    '',
    '* [Intro](README.md)',
    '* [Guide](guide/README.md)',
    '  * [Deep](guide/deep.md)',
    '    * [Deeper](guide/deep/deeper.md)',
    '',
    '## Reference',
    '',
    '* [API](ref/api.md)',
    '* [Site](https://example.com)',
    '',
  ].join('\n');

  it('reads groups and nested pages, and writes them back the same', () => {
    const { groups, warnings } = parseSummary(text);
    expect(warnings).toEqual([]);
    expect(groups.map((g) => g.title)).toEqual([null, 'Reference']);
    expect(groups[0]!.entries[1]).toMatchObject({ kind: 'page', path: 'guide/README.md', title: 'Guide' });
    expect(groups[0]!.entries[1]!.children[0]!.children[0]).toMatchObject({ path: 'guide/deep/deeper.md' });
    expect(groups[1]!.entries[1]).toMatchObject({ kind: 'link', url: 'https://example.com' });
    expect(writeSummary(groups)).toBe(text);
  });

  it('reports a malformed entry or a path leaving the root by its line, and reads the rest', () => {
    const odd = parseSummary('* [A](a.md)\n* plain text\n* [B](../b.md)\n* [C](/etc/c.md)\n* [D](d.md)\n');
    expect(odd.groups[0]!.entries.map((e) => e.title)).toEqual(['A', 'D']);
    expect(odd.warnings).toEqual([
      expect.stringMatching(/line 2: list items must be links/),
      expect.stringMatching(/line 3: "..\/b.md" escapes the project directory/),
      expect.stringMatching(/line 4: .*absolute path/),
    ]);
    expect(() => normalizeRelative('../x.md', 1)).toThrow(SummaryError);
  });

  it('reads what GitBook writes: sidebar titles, anchors, group slugs, separators, escapes, OpenAPI entries', () => {
    const gitbook = [
      '# Table of contents',
      '',
      '* [Developers](README.md)',
      '',
      '## Getting started',
      '',
      '* [A long title for search engines](getting-started/quickstart.md "Quickstart")',
      '* [Buttons](getting-started/inline.md#buttons)',
      "* [What's new \\[updated\\]](<getting-started/what is new.md>)",
      '',
      '## 🛠️ SDKs & API <a href="#sdks" id="sdks"></a>',
      '',
      '* [Reference](reference/README.md)',
      '  * ```yaml',
      '    props:',
      '      models: true',
      '      downloadLink: true',
      '    type: builtin:openapi',
      '    dependencies:',
      '      spec:',
      '        ref:',
      '          kind: openapi',
      '          spec: payments-v2',
      '    ```',
      '',
      '***',
      '',
      '* [Report a bug](https://example.com/bugs)',
      '',
    ].join('\n');
    const { groups, warnings } = parseSummary(gitbook);
    expect(warnings).toEqual([]);
    expect(groups.map((g) => [g.title, g.slug])).toEqual([
      [null, undefined],
      ['Getting started', undefined],
      ['🛠️ SDKs & API', 'sdks'],
      [null, undefined],
    ]);
    expect(groups[1]!.entries).toMatchObject([
      {
        kind: 'page',
        title: 'A long title for search engines',
        linkTitle: 'Quickstart',
        path: 'getting-started/quickstart.md',
      },
      { kind: 'page', title: 'Buttons', path: 'getting-started/inline.md', anchor: 'buttons' },
      { kind: 'page', title: "What's new [updated]", path: 'getting-started/what is new.md' },
    ]);
    const reference = groups[2]!.entries[0]!;
    expect(reference.children[0]).toMatchObject({
      kind: 'computed',
      title: 'payments-v2',
      source: { type: 'builtin:openapi', props: { models: true, downloadLink: true } },
    });
    expect(groups[3]!.entries).toMatchObject([{ kind: 'link', url: 'https://example.com/bugs' }]);
    // Written again, the same structure reads back.
    const again = parseSummary(writeSummary(groups));
    expect(again.warnings).toEqual([]);
    expect(strip(again.groups)).toEqual(strip(groups));
  });
});

function strip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'line' ? undefined : v)));
}

describe('page files', () => {
  it('reads front matter and the title, keeps the body byte for byte, and writes the same file', () => {
    const file =
      '---\ndescription: >-\n  A long\n  description\nicon: book\nhidden: true\nlayout:\n  width: wide\n  title:\n    visible: true\n  description:\n    visible: false\n  tableOfContents:\n    visible: true\n  outline:\n    visible: true\n  pagination:\n    visible: true\n---\n\n# The title\n\n{% hint style="info" %}\nHi\n{% endhint %}\n';
    const page = parsePageFile(file);
    expect(page).toMatchObject({
      title: 'The title',
      description: 'A long description',
      icon: 'book',
      hidden: true,
    });
    expect(page.layout).toMatchObject({ width: 'wide', description: false, title: true });
    expect(page.body).toBe('{% hint style="info" %}\nHi\n{% endhint %}\n');
    const { body, head, ...fields } = page;
    expect(writePageFile(fields, body, head)).toBe(file);
    // Without the head it was read from, GitBook's full layout is written.
    expect(writePageFile(fields, body)).toBe(
      file
        .replace('>-\n  A long\n  description', 'A long description')
        .replace('  title:\n', '  cover:\n    visible: false\n    size: hero\n  title:\n')
        .replace('---\n\n# The', '  metadata:\n    visible: true\n---\n\n# The'),
    );
  });

  it('handles files without front matter or title', () => {
    expect(parsePageFile('just text\n')).toEqual({ body: 'just text\n', head: '' });
    expect(parsePageFile('---\n[bad\n---\n\n# Title\n\nText\n')).toMatchObject({
      problem: expect.stringMatching(/front matter is not valid YAML \(line/),
      title: 'Title',
      body: 'Text\n',
    });
  });

  // Front matter as GitBook writes it (keys from GitBook's own synced repositories).
  const gitbookFile = [
    '---',
    'description: "Add a step-by-step guide to a page —\\_perfect for tutorials"',
    'icon: id-card',
    'cover: ../.gitbook/assets/identity-cover.png',
    'coverY: -61.78133333333333',
    'layout:',
    '  width: wide',
    '  cover:',
    '    visible: true',
    '    size: full',
    '    mask: none',
    '  title:',
    '    visible: true',
    '  description:',
    '    visible: false',
    '  tableOfContents:',
    '    visible: true',
    '  outline:',
    '    visible: true',
    '  pagination:',
    '    visible: false',
    '  metadata:',
    '    visible: true',
    '  tags:',
    '    visible: true',
    'noRobotsIndex: true',
    'if: visitor.claims.unsigned.bucket.IF_BLOCK === true',
    'vars:',
    '  code: ticket_reminder # a comment GitBook users write',
    'tags:',
    '  - news',
    '  - tag: beta',
    '    primary: true',
    'metadata:',
    '  canonical: https://example.com/x',
    '---',
    '',
    '# Identity \\[beta\\]',
    '',
    'Body.',
    '',
  ].join('\n');

  it('reads GitBook front matter: lists, nested maps, escapes, cover, condition; unknown keys kept', () => {
    const page = parsePageFile(gitbookFile);
    expect(page).toMatchObject({
      title: 'Identity [beta]',
      description: 'Add a step-by-step guide to a page —\u00a0perfect for tutorials',
      icon: 'id-card',
      cover: { src: '../.gitbook/assets/identity-cover.png', yPos: -61.78133333333333 },
      noRobotsIndex: true,
      condition: 'visitor.claims.unsigned.bucket.IF_BLOCK === true',
      body: 'Body.\n',
    });
    expect(page.layout).toMatchObject({
      width: 'wide',
      cover: true,
      coverSize: 'full',
      description: false,
      pagination: false,
    });
    expect(page.head + page.body).toBe(gitbookFile);
  });

  it('writes an unchanged page back byte for byte, and edits only what changed', () => {
    const { body, head, ...fields } = parsePageFile(gitbookFile);
    expect(writePageFile(fields, body, head)).toBe(gitbookFile);
    const edited = writePageFile({ ...fields, description: 'Shorter', hidden: true }, body, head);
    expect(edited).toMatch(/\ndescription: "?Shorter"?\n/);
    expect(edited).toContain('hidden: true');
    // Keys Quire does not know, their comments and the layout stay as they were.
    expect(edited).toContain('  code: ticket_reminder # a comment GitBook users write\n');
    expect(edited).toContain('  - tag: beta\n    primary: true\n');
    expect(edited).toContain('    mask: none\n');
    expect(parsePageFile(edited)).toMatchObject({ ...fields, description: 'Shorter', hidden: true, body });
    // A file without a title line got its title from SUMMARY.md: it is not added.
    const untitled = '---\nicon: book\n---\n\nText\n';
    const read = parsePageFile(untitled);
    expect(writePageFile({ ...read, title: 'From the summary' }, read.body, read.head)).toBe(untitled);
  });
});

describe('.gitbook.yaml', () => {
  it('reads root, structure and redirects, and refuses a root leaving the project', () => {
    const config = parseGitbookConfig(
      "root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\nredirects:\n  old/page: 'new/page.md'\n",
    );
    expect(config).toEqual({
      root: 'docs',
      readme: 'intro.md',
      summary: 'toc.md',
      redirects: { 'old/page': 'new/page.md' },
    });
    expect(parseGitbookConfig(writeGitbookConfig(config))).toEqual(config);
    expect(() => parseGitbookConfig('root: ../../\n')).toThrow(/escapes/);
  });

  it('names what is wrong with an unreadable file', () => {
    expect(() => parseGitbookConfig('root: [unclosed\n')).toThrow(/\.gitbook\.yaml is not valid/);
    expect(() => parseGitbookConfig('- a\n- b\n')).toThrow(/not a mapping/);
  });
});

describe('a page with a cover and no layout', () => {
  it('shows its cover, and writes back unchanged', () => {
    const file = '---\ncover: ../.gitbook/assets/c.png\ncoverY: 0\n---\n\n# Covered\n\nText\n';
    const { body, head, ...fields } = parsePageFile(file);
    expect(writePageFile({ ...fields, layout: { ...DEFAULT_LAYOUT, cover: true } }, body, head)).toBe(file);
  });
});

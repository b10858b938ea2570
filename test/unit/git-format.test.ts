import { describe, expect, it } from 'vitest';
import { parsePageFile, writePageFile } from '../../src/git/front-matter.js';
import { parseGitbookConfig, writeGitbookConfig } from '../../src/git/gitbook-yaml.js';
import { parseSummary, SummaryError, writeSummary } from '../../src/git/summary.js';
import { parseYaml } from '../../src/git/yaml-lite.js';

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
    const groups = parseSummary(text);
    expect(groups.map((g) => g.title)).toEqual([null, 'Reference']);
    expect(groups[0]!.entries[1]).toMatchObject({ kind: 'page', path: 'guide/README.md', title: 'Guide' });
    expect(groups[0]!.entries[1]!.children[0]!.children[0]).toMatchObject({ path: 'guide/deep/deeper.md' });
    expect(groups[1]!.entries[1]).toMatchObject({ kind: 'link', url: 'https://example.com' });
    expect(writeSummary(groups)).toBe(text);
  });

  it('names the line of a malformed entry and refuses paths leaving the root', () => {
    expect(() => parseSummary('* [A](a.md)\n* plain text\n')).toThrow(/line 2: list items must be links/);
    expect(() => parseSummary('* [A](../a.md)\n')).toThrow(SummaryError);
    expect(() => parseSummary('* [A](/etc/a.md)\n')).toThrow(/absolute path/);
  });
});

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
    const { body, ...fields } = page;
    expect(writePageFile(fields, body)).toBe(
      file.replace('>-\n  A long\n  description', 'A long description'),
    );
  });

  it('handles files without front matter or title', () => {
    expect(parsePageFile('just text\n')).toEqual({ body: 'just text\n' });
    expect(() => parsePageFile('---\n[bad\n---\n')).toThrow(/front matter/);
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

  it('parses the YAML subset and refuses the rest', () => {
    expect(parseYaml('a: "x: y"\nb:\n  c: 2\n  d: false # comment\n')).toEqual({
      a: 'x: y',
      b: { c: 2, d: false },
    });
    expect(() => parseYaml('a:\n  - 1\n')).toThrow(/lists/);
  });
});

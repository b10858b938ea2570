import { randomBytes } from 'node:crypto';

/**
 * Generated GitBook-format repositories for bench/git: SUMMARY.md with groups and nested lists,
 * a README.md per folder, 1–2 KB pages with front matter and blocks, PNG-ish assets (a real
 * PNG signature and IHDR, so width and height are read, then random bytes of varied sizes).
 */

export interface RepoShape {
  sections: number;
  topics: number;
  leaves: number;
  assets: number;
  /** Asset sizes cycle through these (bytes). */
  assetSizes: number[];
}

export const asset = (i: number) => `image-${String(i).padStart(4, '0')}.png`;

/** A PNG signature and IHDR chunk of `width` x `height`, followed by `size` bytes in all. */
export function pngish(width: number, height: number, size: number): Buffer {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  head.writeUInt8(8, 24); // bit depth
  head.writeUInt8(6, 25); // RGBA
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);
}

export function page(title: string, n: number, depth: number, assets: number, version = 1): string {
  const up = '../'.repeat(depth);
  const lines = [
    '---',
    `description: How ${title.toLowerCase()} works and what to check first.`,
    ...(n % 7 === 0 ? ['icon: gear'] : []),
    ...(n % 11 === 0 ? ['hidden: true'] : []),
    '---',
    '',
    `# ${title}`,
    '',
    `This page explains ${title.toLowerCase()} in detail: when it applies, how it is configured for production use, and what to look at first when it does not behave as expected.`,
    '',
    '{% hint style="info" %}',
    `Page ${n} is generated for the benchmark (version ${version}); its blocks follow GitBook's format.`,
    '{% endhint %}',
    '',
    '## Configuration',
    '',
    '* Set the **endpoint** and the _timeout_ before the first run.',
    '* Keep the token out of the repository; use an environment variable.',
    '* Restart the service after changing the configuration.',
    '',
    '{% tabs %}',
    '{% tab title="npm" %}',
    '```bash',
    `quire configure --section ${n} --timeout 30`,
    '```',
    '{% endtab %}',
    '',
    '{% tab title="yarn" %}',
    '```bash',
    `yarn quire configure --section ${n}`,
    '```',
    '{% endtab %}',
    '{% endtabs %}',
    '',
    '| Option | Default | Meaning |',
    '| --- | --- | --- |',
    '| `timeout` | 30 | Seconds before a request is abandoned. |',
    '| `retries` | 3 | Attempts before giving up. |',
    '',
  ];
  if (assets > 0) {
    lines.push(`![Diagram ${n}](${up}.gitbook/assets/${asset(n % assets)})`, '');
    if (n % 3 === 0) lines.push(`![Detail ${n}](${up}.gitbook/assets/${asset((n * 7 + 1) % assets)})`, '');
  }
  lines.push(
    '## Troubleshooting',
    '',
    `When ${title.toLowerCase()} fails, read the log first, then the configuration. See the [overview](${up}README.md) for the whole picture.`,
    '',
  );
  return lines.join('\n');
}

/** Files (path -> content) and the path of every page file in SUMMARY.md order. */
export function generate(shape: RepoShape): { files: Record<string, string | Buffer>; pagePaths: string[] } {
  const files: Record<string, string | Buffer> = {};
  const summary = ['# Table of contents', '', '* [Overview](README.md)'];
  const pagePaths = ['README.md'];
  files['README.md'] = page('Overview', 0, 0, shape.assets);
  let n = 1;
  for (let s = 0; s < shape.sections; s++) {
    if (s % 5 === 0) summary.push('', `## Part ${s / 5 + 1}`, '');
    const section = `section-${s + 1}`;
    summary.push(`* [Section ${s + 1}](${section}/README.md)`);
    files[`${section}/README.md`] = page(`Section ${s + 1}`, n++, 1, shape.assets);
    pagePaths.push(`${section}/README.md`);
    for (let t = 0; t < shape.topics; t++) {
      const topic = `${section}/topic-${t + 1}`;
      summary.push(`  * [Topic ${s + 1}.${t + 1}](${topic}/README.md)`);
      files[`${topic}/README.md`] = page(`Topic ${s + 1}.${t + 1}`, n++, 2, shape.assets);
      pagePaths.push(`${topic}/README.md`);
      for (let l = 0; l < shape.leaves; l++) {
        const leaf = `${topic}/page-${l + 1}.md`;
        summary.push(`    * [Page ${s + 1}.${t + 1}.${l + 1}](${leaf})`);
        files[leaf] = page(`Page ${s + 1}.${t + 1}.${l + 1}`, n++, 2, shape.assets);
        pagePaths.push(leaf);
      }
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  for (let i = 0; i < shape.assets; i++) {
    const size = shape.assetSizes[i % shape.assetSizes.length]!;
    files[`.gitbook/assets/${asset(i)}`] = pngish(64 + (i % 200), 48 + (i % 150), size);
  }
  return { files, pagePaths };
}

/** The depth (folders) of a page path, for its relative links. */
export const depthOf = (pagePath: string) => pagePath.split('/').length - 1;

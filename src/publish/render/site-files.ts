/**
 * The text files a published site serves beside its pages: `sitemap.xml`, `robots.txt` and
 * `llms.txt` (https://llmstxt.org: a markdown index of the site for language models).
 */

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeXml(value: string): string {
  // Characters XML 1.0 cannot hold at all are dropped rather than escaped.
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

export function renderSitemap(urls: string[]): string {
  const entries = urls.map((url) => `  <url><loc>${escapeXml(url)}</loc></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}</urlset>\n`;
}

/** One line, whatever the value holds: robots.txt and llms.txt are line based. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
}

export function renderRobots(options: { allow: boolean; sitemapUrl?: string }): string {
  let out = `User-agent: *\n${options.allow ? 'Allow: /' : 'Disallow: /'}\n`;
  if (options.allow && options.sitemapUrl) out += `\nSitemap: ${oneLine(options.sitemapUrl)}\n`;
  return out;
}

/** Text for inside `[...]` of a markdown link. */
function linkText(value: string): string {
  return oneLine(value).replace(/([\\[\]])/g, '\\$1');
}

/** A URL for inside `(...)` of a markdown link: spaces and parentheses percent-encoded. */
function linkUrl(value: string): string {
  return oneLine(value).replace(
    /[ ()<>]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

export interface LlmsPage {
  title: string;
  href: string;
  description?: string | undefined;
  /** The `##` section the page is listed under; pages without one go under "Pages". */
  section?: string | undefined;
}

/**
 * `# Title`, `> description`, then `## Section` lists of `- [Title](url): description`, in
 * the order the pages come (sections in order of first appearance).
 */
export function renderLlmsTxt(
  site: { title: string; description?: string | undefined },
  pages: LlmsPage[],
): string {
  let out = `# ${oneLine(site.title)}\n`;
  if (site.description) out += `\n> ${oneLine(site.description)}\n`;
  const sections = new Map<string, string[]>();
  for (const page of pages) {
    const name = oneLine(page.section ?? '') || 'Pages';
    const line = `- [${linkText(page.title)}](${linkUrl(page.href)})${page.description ? `: ${oneLine(page.description)}` : ''}`;
    const list = sections.get(name) ?? [];
    list.push(line);
    sections.set(name, list);
  }
  for (const [name, lines] of sections) out += `\n## ${name}\n\n${lines.join('\n')}\n`;
  return out;
}

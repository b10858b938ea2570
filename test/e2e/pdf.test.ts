import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { rawRequest } from '../helpers/client.js';
import { insert, newChangeRequest, seed, write } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SpecServer } from '../helpers/spec-server.js';

/**
 * Change requests and spaces printed (getChangeRequestPDF, getSpacePDF): real PDFs printed by
 * Chromium (the system's, or the npm package's), read back by their text with a PDF text
 * extractor; the print HTML; the signed URLs; bad input; tenancy.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mNk+M9QzwAEjDAGACCDAv8cI7IoAAAAAElFTkSuQmCC',
  'base64',
);

let server: TestServer;
let recorder: SpecServer;
let clock: ManualClock;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
let orgId: string;
let spaceId: string;
let pages: Map<string, string>;
let crId: string;
let crNumber: number;

/** Written as GitBook writes its markdown (blocks as GitBook's docs describe them). */
const GETTING_STARTED = [
  '---',
  'description: Install Acme and run your first job.',
  '---',
  '',
  '# Getting started',
  '',
  'Read the [configuration reference](configuration.md#ports) before you deploy.',
  '',
  '{% hint style="warning" %}',
  'Back up your data before you upgrade.',
  '{% endhint %}',
  '',
  '{% tabs %}',
  '{% tab title="macOS" %}',
  'Install with Homebrew on the Mac tab.',
  '{% endtab %}',
  '',
  '{% tab title="Linux" %}',
  'Install with apt on the Linux tab.',
  '{% endtab %}',
  '{% endtabs %}',
  '',
  '<details>',
  '',
  '<summary>Troubleshooting</summary>',
  '',
  'Hidden until opened on the web: printed open.',
  '',
  '</details>',
  '',
  '{% stepper %}',
  '{% step %}',
  '### Download',
  '',
  'Fetch the archive.',
  '{% endstep %}',
  '',
  '{% step %}',
  '### Run',
  '',
  'Start the daemon.',
  '{% endstep %}',
  '{% endstepper %}',
  '',
  '```bash',
  'acme start --port 8080 # in the foreground',
  '```',
  '',
  '<figure><img src=".gitbook/assets/diagram.png" alt="Architecture diagram"><figcaption><p>How the parts talk</p></figcaption></figure>',
].join('\n');

const CONFIGURATION = ['# Configuration', '', '## Ports', '', 'Acme listens on port 8080 by default.'].join(
  '\n',
);
const ADVANCED = ['# Advanced', '', 'Tuning the scheduler for large clusters.'].join('\n');

async function pdfOf(url: string): Promise<{ pages: string[]; bytes: Buffer; response: Response }> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const document = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(document, { mergePages: false });
  return { pages: text.map((t) => t.replace(/\s+/g, ' ')), bytes, response };
}

/** Where each string first appears in the text, in order; fails when one is missing. */
function positions(text: string, strings: string[]): number[] {
  return strings.map((s) => {
    const at = text.indexOf(s);
    if (at < 0) throw new Error(`"${s}" is not in the printed text:\n${text.slice(0, 3000)}`);
    return at;
  });
}

function ascending(values: number[]): boolean {
  return values.every((v, i) => i === 0 || v > values[i - 1]!);
}

beforeAll(async () => {
  recorder = await SpecServer.start();
  clock = new ManualClock(new Date());
  server = await startTestServer({ worker: true, clock });
  admin = await createUser(server, { name: 'Ada Admin' });
  reader = await createUser(server, { name: 'Rita Reader' });
  outsider = await createUser(server);
  orgId = await createOrg(admin, 'Acme');
  await addMember(admin, orgId, reader, 'read');
  spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Acme handbook' })).data.id;
  const seedCr = await newChangeRequest(admin.api, spaceId, 'Files');
  await write(admin.api, spaceId, seedCr, [
    { operation: 'insert_files', files: [{ name: 'diagram.png', base64: PNG.toString('base64') }] },
  ]);
  await admin.api.spaces.mergeChangeRequest(spaceId, seedCr);
  pages = await seed(admin.api, spaceId, [
    insert('Getting started', GETTING_STARTED),
    insert('Configuration', CONFIGURATION),
  ]);
  const cr = await newChangeRequest(admin.api, spaceId, 'Document the scheduler');
  crId = cr;
  const written = await write(admin.api, spaceId, cr, [
    insert('Advanced', ADVANCED, { into: pages.get('Configuration') }),
  ]);
  pages.set('Advanced', (written.changes[0]!.page as { id: string }).id);
  crNumber = (await admin.api.spaces.getChangeRequestById(spaceId, cr)).data.number;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await recorder?.close();
});

describe('getChangeRequestPDF', () => {
  it('answers a signed URL that prints the change request: title page, contents, pages in tree order', async () => {
    const { data } = await admin.api.spaces.getChangeRequestPdf(spaceId, crId);
    expect(data.url.startsWith(`${server.url}/print/`)).toBe(true);
    const { pages: sheets, response } = await pdfOf(data.url);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const text = sheets.join('\n');
    // Title page: subject, number, author, status.
    expect(sheets[0]).toContain('Document the scheduler');
    expect(sheets[0]).toContain(`Change request #${crNumber}`);
    expect(sheets[0]).toContain('Ada Admin');
    expect(sheets[0]).toContain('draft');
    // Contents, then the pages in tree order; "Advanced" exists only in the change request.
    expect(ascending(positions(text, ['Contents', 'Getting started', 'Configuration', 'Advanced']))).toBe(
      true,
    );
    const body = text.slice(text.indexOf('Read the configuration reference'));
    expect(
      ascending(positions(body, ['Back up your data', 'Acme listens on port', 'Tuning the scheduler'])),
    ).toBe(true);
    // Every tab, the expandable's body and the steps are printed.
    positions(text, [
      'Install with Homebrew on the Mac tab',
      'Install with apt on the Linux tab',
      'Hidden until opened on the web',
      'Fetch the archive',
      'Start the daemon',
      'acme start --port 8080',
      'How the parts talk',
    ]);
    // No raw GitBook markup.
    expect(text).not.toContain('{%');
    expect(text).not.toContain('<figure');
    // Page numbers in the footer of each sheet.
    expect(sheets.at(-1)).toContain(`${sheets.length} / ${sheets.length}`);
  }, 120_000);

  it('embeds the space images, makes internal links in-document and has an outline', async () => {
    const { data } = await admin.api.spaces.getChangeRequestPdf(spaceId, crId);
    const { bytes } = await pdfOf(data.url);
    const document = await getDocumentProxy(new Uint8Array(bytes));
    // The image is in the file (an image XObject), not a reference to fetch.
    expect(bytes.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
    const outline = (await document.getOutline()) ?? [];
    const titles = JSON.stringify(outline.map((o) => [o.title, o.items.map((i) => i.title)]));
    expect(titles).toContain('Getting started');
    expect(titles).toContain('Advanced');
    // The print HTML behind it: code highlighted, the link to the other page's heading in the book.
    const html = await (await fetch(data.url.replace(/\.pdf$/, ''))).text();
    expect(html).toMatch(/<span class="hljs-[a-z]+">/);
    expect(html).toContain(`href="#page-${pages.get('Configuration')}--ports"`);
    expect(html).toContain(`id="page-${pages.get('Configuration')}--ports"`);
    // The link to configuration.md#ports points inside the PDF (a destination, not a URL).
    let internal = 0;
    for (let n = 1; n <= document.numPages; n++) {
      const annotations = await (await document.getPage(n)).getAnnotations();
      internal += annotations.filter((a) => a.subtype === 'Link' && !a.url && a.dest).length;
    }
    expect(internal).toBeGreaterThan(0);
  }, 120_000);
});

describe('selections', () => {
  it('prints one page and its descendants, or that page only', async () => {
    const configuration = pages.get('Configuration')!;
    const subtree = await admin.api.spaces.getChangeRequestPdf(spaceId, crId, { page: configuration });
    const tree = (await pdfOf(subtree.data.url)).pages.join('\n');
    positions(tree, ['Acme listens on port', 'Tuning the scheduler']);
    expect(tree).not.toContain('Back up your data');
    const only = await admin.api.spaces.getChangeRequestPdf(spaceId, crId, {
      page: configuration,
      only: true,
    });
    const alone = (await pdfOf(only.data.url)).pages.join('\n');
    positions(alone, ['Acme listens on port', 'this page only']);
    expect(alone).not.toContain('Tuning the scheduler');
    expect(alone).not.toContain('Back up your data');
  }, 120_000);

  it('prints the space (getSpacePDF) without what is only in the change request', async () => {
    const { data } = await reader.api.spaces.getSpacePdf(spaceId);
    const text = (await pdfOf(data.url)).pages.join('\n');
    positions(text, ['Acme handbook', 'Back up your data', 'Acme listens on port']);
    expect(text).not.toContain('Tuning the scheduler');
  }, 120_000);

  it('takes the change request by number', async () => {
    const { data } = await admin.api.spaces.getChangeRequestPdf(spaceId, String(crNumber));
    positions((await pdfOf(data.url)).pages.join('\n'), ['Tuning the scheduler']);
  }, 120_000);
});

describe('the print URL', () => {
  it('serves a second request for the same print from the cache, without printing again', async () => {
    const { data } = await reader.api.spaces.getChangeRequestPdf(spaceId, crId, {
      page: pages.get('Advanced'),
    });
    const first = await pdfOf(data.url);
    const renders = () =>
      server.database.db.selectFrom('jobs').select('id').where('kind', '=', 'pdf.render').execute();
    const before = (await renders()).length;
    const again = await reader.api.spaces.getChangeRequestPdf(spaceId, crId, { page: pages.get('Advanced') });
    const second = await pdfOf(again.data.url);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect((await renders()).length).toBe(before);
  }, 120_000);

  it('prints what the change request holds when the URL is opened, and a new revision prints anew', async () => {
    const { data } = await admin.api.spaces.getChangeRequestPdf(spaceId, crId);
    const edit = await newChangeRequest(admin.api, spaceId, 'Scratch');
    await write(admin.api, spaceId, edit, [insert('Scratch page', 'Only in the scratch request.')]);
    await write(admin.api, spaceId, crId, [insert('Late page', 'Added after the URL was minted.')]);
    positions((await pdfOf(data.url)).pages.join('\n'), ['Added after the URL was minted']);
    expect((await pdfOf(data.url)).pages.join('\n')).not.toContain('Only in the scratch request');
  }, 120_000);

  it('refuses an expired URL (410), a tampered one (404) and one made from another grant (404)', async () => {
    const { data } = await admin.api.spaces.getChangeRequestPdf(spaceId, crId);
    const token = new URL(data.url).pathname.slice('/print/'.length, -'.pdf'.length);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    // One character of the signature changed.
    const flipped = `${head}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const tampered = await fetch(`${server.url}/print/${flipped}.pdf`);
    expect(tampered.status).toBe(404);
    expect(await tampered.json()).toMatchObject({ error: { code: 404 } });
    // The grant of the space, signed, with the change request's signature.
    const space = await admin.api.spaces.getSpacePdf(spaceId);
    const other = new URL(space.data.url).pathname.slice('/print/'.length, -'.pdf'.length).split('.');
    const swapped = await fetch(`${server.url}/print/${head}.${other[1]}.${signature}`);
    expect(swapped.status).toBe(404);
    for (const junk of ['x', 'a.b.c', `${'A'.repeat(500)}.pdf`, `${head}.${payload}`]) {
      expect((await fetch(`${server.url}/print/${junk}`)).status).toBe(404);
    }
    // Past the router's limit on a path parameter, any URL is a 414 (the server's rule).
    expect((await fetch(`${server.url}/print/${'A'.repeat(3000)}.pdf`)).status).toBe(414);
    clock.advance(61 * 60 * 1000);
    try {
      const expired = await fetch(data.url);
      expect(expired.status).toBe(410);
      expect(await expired.json()).toMatchObject({ error: { code: 410 } });
      expect((await fetch(data.url.replace(/\.pdf$/, ''))).status).toBe(410);
    } finally {
      clock.advance(-61 * 60 * 1000);
    }
  }, 120_000);

  it('makes no request outside the server while printing', async () => {
    recorder.routes.set('/tracker.png', { body: 'x', type: 'image/png' });
    const edit = await newChangeRequest(admin.api, spaceId, 'Outside image');
    await write(admin.api, spaceId, edit, [
      insert(
        'Remote image',
        [
          `![Tracker](${recorder.url('/tracker.png')})`,
          '',
          `<figure><img src="${recorder.url('/figure.png')}" alt="Remote figure"><figcaption><p>Remote</p></figcaption></figure>`,
          '',
          `{% embed url="${recorder.url('/embed')}" %}`,
        ].join('\n'),
      ),
    ]);
    const { data } = await admin.api.spaces.getChangeRequestPdf(spaceId, edit);
    positions((await pdfOf(data.url)).pages.join('\n'), ['Remote image']);
    expect(recorder.requests).toEqual([]);
    expect(recorder.connections).toBe(0);
  }, 120_000);
});

describe('bad input and access', () => {
  it('answers 400 naming the parameter, 404 for what is not there', async () => {
    const onlyAlone = await failure(admin.api.spaces.getChangeRequestPdf(spaceId, crId, { only: true }));
    expect(onlyAlone.code).toBe(400);
    expect(onlyAlone.message).toContain('query.only');
    const maybe = await rawRequest(
      server.url,
      'GET',
      `/v1/spaces/${spaceId}/change-requests/${crId}/pdf?only=maybe&page=x`,
      { token: admin.token },
    );
    expect(maybe.status).toBe(400);
    expect(JSON.stringify(maybe.body)).toContain('only');
    const long = await failure(
      admin.api.spaces.getChangeRequestPdf(spaceId, crId, { page: 'p'.repeat(129) }),
    );
    expect(long.code).toBe(400);
    expect(long.message).toContain('page');
    // A page of the change request that the space does not have yet is not in the space's print.
    const missing = await failure(admin.api.spaces.getSpacePdf(spaceId, { page: pages.get('Advanced') }));
    expect(missing.code).toBe(404);
    expect((await failure(admin.api.spaces.getChangeRequestPdf(spaceId, crId, { page: 'nope' }))).code).toBe(
      404,
    );
    expect((await failure(admin.api.spaces.getChangeRequestPdf(spaceId, 'nope'))).code).toBe(404);
    expect((await failure(admin.api.spaces.getChangeRequestPdf('nope', crId))).code).toBe(404);
    expect((await failure(admin.api.spaces.getSpacePdf('nope'))).code).toBe(404);
  });

  it('is a 404 to outsiders and to requests without a token', async () => {
    expect((await failure(outsider.api.spaces.getChangeRequestPdf(spaceId, crId))).code).toBe(404);
    expect((await failure(outsider.api.spaces.getSpacePdf(spaceId))).code).toBe(404);
    const anonymous = await rawRequest(server.url, 'GET', `/v1/spaces/${spaceId}/pdf`);
    expect([401, 404]).toContain(anonymous.status);
  });
});

describe('without Chromium', () => {
  let bare: TestServer;
  let bareSpace: string;
  beforeAll(async () => {
    bare = await startTestServer({
      worker: true,
      env: { QUIRE_CHROMIUM_PATH: 'none', QUIRE_PDF_MAX_PAGES: '2' },
    });
    bareSpace = (await bare.admin.api.orgs.createSpace(bare.admin.orgId, { title: 'Bare' })).data.id;
    await seed(bare.admin.api, bareSpace, [
      insert('First', 'The first page. <script>alert(1)</script>'),
      insert('Second', '<img src=x onerror="alert(2)"> The second page.'),
      insert('Third', 'The third page.'),
    ]);
  }, 120_000);
  afterAll(async () => {
    await bare?.close();
  });

  it('leads the URL to the print-ready HTML, with no script and the page cap said', async () => {
    const { data } = await bare.admin.api.spaces.getSpacePdf(bareSpace);
    const answer = await fetch(data.url, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!, data.url).toString();
    expect(location).toBe(data.url.replace(/\.pdf$/, ''));
    const page = await fetch(location);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    const html = await page.text();
    expect(html).toContain('The first page.');
    expect(html).toContain('The second page.');
    expect(html).not.toContain('The third page.');
    expect(html).toContain('first 2 pages; 1 more were left out');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror=/i);
  });
});

describe('a 500-page space', () => {
  it('prints within the cap', async () => {
    const big = (await admin.api.orgs.createSpace(orgId, { title: 'Big manual' })).data.id;
    const cr = await newChangeRequest(admin.api, big, 'Many pages');
    for (let start = 0; start < 500; start += 50) {
      await write(
        admin.api,
        big,
        cr,
        Array.from({ length: 50 }, (_, i) =>
          insert(
            `Chapter ${start + i + 1}`,
            `Text of chapter ${start + i + 1}.\n\n\`\`\`js\nconsole.log(${start + i + 1});\n\`\`\``,
          ),
        ),
      );
    }
    await admin.api.spaces.mergeChangeRequest(big, cr);
    const { data } = await admin.api.spaces.getSpacePdf(big);
    const printed = await pdfOf(data.url);
    expect(printed.pages.length).toBeGreaterThanOrEqual(502);
    const text = printed.pages.join('\n');
    expect(
      ascending(positions(text, ['Text of chapter 1.', 'Text of chapter 250.', 'Text of chapter 500.'])),
    ).toBe(true);
    expect(text).not.toContain('left out');
  }, 600_000);
});

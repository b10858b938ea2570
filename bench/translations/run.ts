/**
 * bench/translations: what a translation run costs, first and after a one-page edit.
 *
 * A server in this process (SQLite) and a translation service on loopback (the tests' double:
 * OpenAI-compatible protocol, answers at once). For a space of BENCH_PAGES pages (default 1,000)
 * and, in the same run, one of 10 pages:
 * - the first run: segments sent, wall time, time waiting for the service, Quire's own time;
 * - a run after editing one paragraph of one page (merged), the same figures.
 * Target: after the first run, work (segments sent, Quire's own time) follows the change, not
 * the space: the one-page run of the large space costs about what it costs in the small one.
 */
import type { GitBookAPI } from '@gitbook/api';
import { insert, newChangeRequest, write } from '../../test/helpers/content.js';
import { createOrg, createUser } from '../../test/helpers/factories.js';
import { startTestServer, type TestServer } from '../../test/helpers/server.js';
import { startTranslationServer } from '../../test/helpers/translation-server.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const log = (line: string) => process.stdout.write(`${line}\n`);

function pageMarkdown(i: number): string {
  return [
    `Page ${i} explains how the **frobnicator** handles case ${i}, and why it matters.`,
    '',
    `- Set the [option ${i}](https://example.com/options/${i}) before you start.`,
    '- Restart the service afterwards.',
    '',
    '{% hint style="info" %}',
    `Case ${i} is rare, but _every_ installation meets it once.`,
    '{% endhint %}',
    '',
    '```bash',
    `frob --case ${i} --verbose`,
    '```',
    '',
    'See the reference for the full list of options.',
  ].join('\n');
}

async function makeSpace(
  api: GitBookAPI,
  orgId: string,
  pages: number,
): Promise<{ spaceId: string; firstPage: string }> {
  const spaceId = (await api.orgs.createSpace(orgId, { title: `Docs ${pages}`, language: 'en' } as never))
    .data.id;
  const cr = await newChangeRequest(api, spaceId, 'Content');
  let firstPage = '';
  for (let start = 0; start < pages; start += 50) {
    const batch = Array.from({ length: Math.min(50, pages - start) }, (_, k) =>
      insert(`Topic ${start + k}`, pageMarkdown(start + k)),
    );
    const result = await write(api, spaceId, cr, batch);
    if (!firstPage) firstPage = (result.changes[0]!.page as { id: string }).id;
  }
  await api.spaces.mergeChangeRequest(spaceId, cr);
  return { spaceId, firstPage };
}

interface Figures {
  segments: number;
  /** From the run's request (or the merge) to the translation shown completed, jobs polled. */
  wallMs: number;
  /** The run itself, from its start to its revision. */
  runMs: number;
  serviceMs: number;
  /** The run's time less the time waiting for the service. */
  ownMs: number;
}

async function runOnce(
  server: TestServer,
  api: GitBookAPI,
  orgId: string,
  id: string,
  runs: number,
): Promise<Figures> {
  const started = performance.now();
  for (;;) {
    await server.app.quire.services.jobs.runDue();
    const { data } = await api.orgs.getTranslation(orgId, id);
    if (data.stats.runs === runs && data.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const wallMs = performance.now() - started;
  const last = server.app.quire.services.translationRuns.lastRun!;
  return {
    segments: last.segmentsSent,
    wallMs,
    runMs: last.totalMs,
    serviceMs: last.serviceMs,
    ownMs: last.totalMs - last.serviceMs,
  };
}

async function measure(server: TestServer, api: GitBookAPI, orgId: string, pages: number) {
  log(`Space of ${pages} pages…`);
  const { spaceId, firstPage } = await makeSpace(api, orgId, pages);
  const { data } = await api.orgs.createTranslation(orgId, {
    source: { space: spaceId, language: 'en' },
    language: 'fr',
  } as never);
  await api.orgs.runTranslation(orgId, data.id);
  const first = await runOnce(server, api, orgId, data.id, 1);
  const cr = await newChangeRequest(api, spaceId, 'One edit');
  await write(api, spaceId, cr, [
    {
      operation: 'update_page',
      page: firstPage,
      document: { markdown: `${pageMarkdown(0)}\n\nA closing sentence for the ${pages}-page space.` },
    },
  ]);
  // The merge queues the run (debounce 0): its time starts here.
  await api.spaces.mergeChangeRequest(spaceId, cr);
  const edit = await runOnce(server, api, orgId, data.id, 2);
  return { first, edit };
}

const fmt = (f: Figures) =>
  `${f.segments} segments sent; run ${f.runMs.toFixed(0)} ms = ${f.serviceMs.toFixed(0)} ms waiting for the service + ${f.ownMs.toFixed(0)} ms Quire's own; ${f.wallMs.toFixed(0)} ms until shown completed`;

async function main() {
  const service = await startTranslationServer();
  const server = await startTestServer({
    env: {
      QUIRE_TRANSLATION_PROVIDER: 'openai',
      QUIRE_TRANSLATION_URL: service.url,
      QUIRE_TRANSLATION_MODEL: 'bench',
      QUIRE_TRANSLATION_DEBOUNCE_MS: '0',
      QUIRE_RATE_LIMIT: '0',
    },
  });
  try {
    const admin = await createUser(server);
    const orgId = await createOrg(admin, 'Bench');
    const small = await measure(server, admin.api, orgId, 10);
    const large = await measure(server, admin.api, orgId, PAGES);
    log('');
    log(`${PAGES} pages, first run:     ${fmt(large.first)}`);
    log(`${PAGES} pages, one-page edit: ${fmt(large.edit)}`);
    log(`10 pages, first run:       ${fmt(small.first)}`);
    log(`10 pages, one-page edit:   ${fmt(small.edit)}`);
    log('');
    log(
      `one-page edit / first run (${PAGES} pages): segments ${(large.edit.segments / large.first.segments).toFixed(4)}, Quire's own time ${(large.edit.ownMs / large.first.ownMs).toFixed(3)}`,
    );
    log(
      `one-page edit, ${PAGES} pages / 10 pages: segments ${(large.edit.segments / small.edit.segments).toFixed(2)}, Quire's own time ${(large.edit.ownMs / small.edit.ownMs).toFixed(2)}`,
    );
  } finally {
    await server.close();
    await service.close();
  }
}

await main();

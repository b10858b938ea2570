/**
 * bench/search postings-candidate: measures a candidate design for searching very large spaces,
 * against today's SQLite ranking on the same database in the same run. Not a part of Quire.
 *
 * Today a search scores every matching section with FTS5's bm25 (or PostgreSQL's ts_rank over
 * every matching row), about a microsecond or more a match: a common query in a 100,000-page
 * space costs 15-20 ms on SQLite and 40-80 ms on PostgreSQL, against 3-10 ms in a 100-page space
 * (issue 21). The candidate keeps each space's postings as blobs, per term and per chunk of
 * 1,024 pages (section delta and weighted term frequency as varints; title 10, heading 4, text
 * 1, the weights of our bm25), and answers a query in JS: read its terms' blobs, score bm25 for
 * every matching section, keep each page's best, count the pages exactly, keep the top 100.
 *
 * It reports the store's size, what rewriting one page's postings touches, and each query's
 * time both ways. Run it on a Quire database holding a large space, e.g. the one bench/scale
 * builds; on PostgreSQL the store is a table of bytea rows beside it:
 *
 *   QUIRE_DB=path/to/quire.db SPACE=spaceId npx tsx bench/search/postings-candidate.ts
 *   DATABASE_URL=postgres://... PG_SCHEMA=schema SPACE=spaceId npx tsx bench/search/postings-candidate.ts
 *
 * The candidate's store (a temporary SQLite file, or a PostgreSQL schema of its own) is removed
 * afterwards; the database is only read, except for the migrations Quire's opening may apply.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { documentTokens } from '../../src/search/analyzer.js';
import { PostgresSearchIndex } from '../../src/search/postgres-index.js';
import { parseQuery, planQuery, stemRequests } from '../../src/search/query.js';
import { SqliteSearchIndex } from '../../src/search/sqlite-index.js';
import { QUERIES } from '../scale/content.js';

const file = process.env.QUIRE_DB;
const databaseUrl = process.env.DATABASE_URL;
const schema = process.env.PG_SCHEMA;
const spaceId = process.env.SPACE;
if ((!file && !databaseUrl) || !spaceId) {
  console.error(
    'Give the database and the space: QUIRE_DB=path/to/quire.db SPACE=spaceId, or DATABASE_URL=... PG_SCHEMA=... SPACE=spaceId',
  );
  process.exit(2);
}
const CHUNK_BITS = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const K1 = 1.2;
const B = 0.75;

interface SectionRow {
  /** The page's number in the space, then the section's position: its order in the space. */
  page: number;
  heading: string;
  body: string;
  title: string;
}

/** The space's sections in page-number order, as the search index holds them. */
async function sectionsOfSpace(): Promise<SectionRow[]> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    if (schema) await client.query(`SET search_path = ${client.escapeIdentifier(schema)}`);
    const { rows } = await client.query<SectionRow>(
      `SELECT p.num AS page, s.heading, s.body, p.title FROM search_sections s
        JOIN search_pages p ON p.space_id = s.space_id AND p.page_id = s.page_id
        WHERE s.space_id = $1 ORDER BY p.num, s.position`,
      [spaceId],
    );
    await client.end();
    return rows;
  }
  const source = new Database(file!, { readonly: true });
  const space = source.prepare('SELECT num FROM search_space_keys WHERE space_id = ?').get(spaceId) as
    | { num: number }
    | undefined;
  if (!space) {
    console.error(`No search index for space ${spaceId} in ${file}: search it once, or sync its index.`);
    process.exit(2);
  }
  const low = BigInt(space.num) << 42n;
  const rows = source
    .prepare(`SELECT (s.id >> 20) & ${(1 << 22) - 1} AS page, s.heading, s.body, p.title FROM search_sections s
      JOIN search_pages p ON p.space_id = s.space_id AND p.page_id = s.page_id
      WHERE s.id >= ? AND s.id < ? ORDER BY s.id`)
    .all(low, low + (1n << 42n)) as SectionRow[];
  source.close();
  return rows;
}

const rows = await sectionsOfSpace();
let started = performance.now();
const sections = rows.length;
const pageOf = new Int32Array(sections);
const length = new Uint16Array(sections);
const postings = new Map<string, number[]>();
const termsOfPage = new Map<number, Set<string>>();
for (let i = 0; i < sections; i++) {
  const row = rows[i]!;
  const page = Number(row.page);
  pageOf[i] = page;
  const frequencies = new Map<string, number>();
  let tokens = 0;
  for (const [text, weight] of [
    [row.title, 10],
    [row.heading, 4],
    [row.body, 1],
  ] as const) {
    for (const token of documentTokens(text)) {
      tokens++;
      frequencies.set(token.term, (frequencies.get(token.term) ?? 0) + weight);
    }
  }
  length[i] = Math.min(tokens, 65_535);
  const pageTerms = termsOfPage.get(page) ?? new Set<string>();
  termsOfPage.set(page, pageTerms);
  for (const [term, frequency] of frequencies) {
    pageTerms.add(term);
    const list = postings.get(term);
    if (list) list.push(i, frequency);
    else postings.set(term, [i, frequency]);
  }
}
console.log(
  `${sections.toLocaleString('en')} sections, ${postings.size.toLocaleString('en')} terms, tokenized in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

// The candidate's blobs: one per (term, chunk of pages).
const buffer = Buffer.alloc(1 << 24);
const varint = (offset: number, value: number): number => {
  let o = offset;
  let v = value;
  while (v >= 0x80) {
    buffer[o++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buffer[o++] = v;
  return o;
};
const blobs: Array<[string, number, Buffer]> = [];
const blobSize = new Map<string, number>();
for (const [term, list] of postings) {
  let chunk = -1;
  let offset = 0;
  let previous = 0;
  const flush = () => {
    if (chunk < 0) return;
    blobs.push([term, chunk, Buffer.from(buffer.subarray(0, offset))]);
    blobSize.set(`${term}\0${chunk}`, offset);
  };
  for (let j = 0; j < list.length; j += 2) {
    const section = list[j]!;
    const at = pageOf[section]! >> CHUNK_BITS;
    if (at !== chunk) {
      flush();
      chunk = at;
      offset = 0;
      previous = 0;
    }
    offset = varint(offset, section - previous);
    previous = section;
    offset = varint(offset, list[j + 1]!);
  }
  flush();
}

/** Where the blobs are kept: a table keyed by (term, chunk), read a query's terms at once. */
interface Store {
  write(rows: Array<[string, number, Buffer]>): Promise<void>;
  read(terms: string[]): Promise<Map<string, Buffer[]>>;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<Store> {
  const dir = mkdtempSync(path.join(tmpdir(), 'postings-'));
  const db = new Database(path.join(dir, 'postings.db'));
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE postings (term TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (term, chunk)) WITHOUT ROWID',
  );
  const insert = db.prepare('INSERT INTO postings VALUES (?, ?, ?)');
  const select = db.prepare('SELECT term, data FROM postings WHERE term IN (SELECT value FROM json_each(?))');
  return {
    async write(rows) {
      db.transaction(() => {
        for (const row of rows) insert.run(...row);
      })();
    },
    async read(terms) {
      const out = new Map<string, Buffer[]>();
      for (const { term, data } of select.all(JSON.stringify(terms)) as Array<{
        term: string;
        data: Buffer;
      }>) {
        const list = out.get(term);
        if (list) list.push(data);
        else out.set(term, [data]);
      }
      return out;
    },
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(): Promise<Store> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const own = `postings_candidate_${process.pid}`;
  await client.query(`CREATE SCHEMA ${own}`);
  await client.query(
    `CREATE TABLE ${own}.postings (term text NOT NULL, chunk integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (term, chunk))`,
  );
  return {
    async write(rows) {
      for (let i = 0; i < rows.length; i += 1000) {
        const batch = rows.slice(i, i + 1000);
        await client.query(
          `INSERT INTO ${own}.postings SELECT * FROM unnest($1::text[], $2::int[], $3::bytea[])`,
          [batch.map((r) => r[0]), batch.map((r) => r[1]), batch.map((r) => r[2])],
        );
      }
      await client.query(`VACUUM ANALYZE ${own}.postings`);
    },
    async read(terms) {
      const { rows } = await client.query<{ term: string; data: Buffer }>({
        name: 'postings_candidate_read',
        text: `SELECT term, data FROM ${own}.postings WHERE term = ANY($1)`,
        values: [terms],
      });
      const out = new Map<string, Buffer[]>();
      for (const { term, data } of rows) {
        const list = out.get(term);
        if (list) list.push(data);
        else out.set(term, [data]);
      }
      return out;
    },
    async close() {
      await client.query(`DROP SCHEMA ${own} CASCADE`);
      await client.end();
    },
  };
}

const store = databaseUrl ? await postgresStore() : await sqliteStore();
started = performance.now();
await store.write(blobs);
const sizes = blobs.map((blob) => blob[2].length).sort((a, b) => a - b);
const total = sizes.reduce((sum, size) => sum + size, 0);
console.log(
  `store (${databaseUrl ? 'PostgreSQL' : 'SQLite'}): ${sizes.length.toLocaleString('en')} blobs, ${(total / 1e6).toFixed(1)} MB, blob median ${sizes[sizes.length >> 1]} B, p99 ${sizes[Math.floor(sizes.length * 0.99)]} B, largest ${sizes.at(-1)} B; written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

// One page's write rewrites the blobs of its terms in its chunk.
const pages = [...termsOfPage.keys()];
const touched: number[] = [];
const rewritten: number[] = [];
for (let k = 0; k < 200; k++) {
  const page = pages[Math.floor((k * pages.length) / 200)]!;
  const terms = termsOfPage.get(page)!;
  let bytes = 0;
  for (const term of terms) bytes += blobSize.get(`${term}\0${page >> CHUNK_BITS}`) ?? 0;
  touched.push(terms.size);
  rewritten.push(bytes);
}
touched.sort((a, b) => a - b);
rewritten.sort((a, b) => a - b);
console.log(
  `one page's write: ${touched[100]} blobs, ${rewritten[100]} B at the median (${rewritten[197]} B at p99)`,
);

// A query on the store: every word must match in one section (as Quire's search), any of its
// terms; bm25 with the space's own IDF; each page's best section; every page counted.
let average = 0;
for (let i = 0; i < sections; i++) average += length[i]!;
average /= sections;
const sortedTerms = [...postings.keys()].sort();
const score = new Float32Array(sections);
const hits = new Uint8Array(sections);
const seen = new Int32Array(sections);

/** The terms a prefix begins (at most 50, else none: the query keeps the prefix). */
function completions(prefix: string): string[] {
  let lo = 0;
  let hi = sortedTerms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sortedTerms[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sortedTerms.length && sortedTerms[i]!.startsWith(prefix); i++) {
    if (out.length === 50) return [];
    out.push(sortedTerms[i]!);
  }
  return out;
}

async function candidate(words: string[][], limit = 100): Promise<{ count: number; top: number }> {
  let seenCount = 0;
  const found = await store.read(words.flat());
  words.forEach((terms, w) => {
    for (const term of terms) {
      const blobs = found.get(term) ?? [];
      let documents = 0;
      for (const data of blobs)
        for (let o = 0; o < data.length; o++) if ((data[o]! & 0x80) === 0) documents++;
      documents /= 2;
      if (documents === 0) continue;
      const idf = Math.log(1 + (sections - documents + 0.5) / (documents + 0.5));
      for (const data of blobs) {
        let o = 0;
        let section = 0;
        while (o < data.length) {
          let value = 0;
          let shift = 0;
          let byte: number;
          do {
            byte = data[o++]!;
            value |= (byte & 0x7f) << shift;
            shift += 7;
          } while (byte & 0x80);
          section += value;
          let frequency = 0;
          shift = 0;
          do {
            byte = data[o++]!;
            frequency |= (byte & 0x7f) << shift;
            shift += 7;
          } while (byte & 0x80);
          if (hits[section] === 0) seen[seenCount++] = section;
          score[section]! +=
            (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * length[section]!) / average));
          hits[section]! |= 1 << w;
        }
      }
    }
  });
  const all = (1 << words.length) - 1;
  const order = seen.subarray(0, seenCount).sort();
  const best: number[] = [];
  let count = 0;
  let page = -1;
  let top = -1;
  const offer = () => {
    if (top < 0) return;
    count++;
    if (best.length < limit) best.push(top);
    else {
      let min = 0;
      for (let i = 1; i < best.length; i++) if (best[i]! < best[min]!) min = i;
      if (top > best[min]!) best[min] = top;
    }
  };
  for (let j = 0; j < seenCount; j++) {
    const section = order[j]!;
    if (hits[section] === all) {
      if (pageOf[section] !== page) {
        offer();
        page = pageOf[section]!;
        top = -1;
      }
      if (score[section]! > top) top = score[section]!;
    }
    score[section] = 0;
    hits[section] = 0;
  }
  offer();
  return { count, top: best.length };
}

const median = (times: number[]) => [...times].sort((a, b) => a - b)[times.length >> 1]!;
const database = databaseUrl
  ? await openDatabase({ databaseUrl, ...(schema ? { pgSchema: schema } : {}) })
  : await openDatabase({ sqliteFile: file! });
const index = databaseUrl ? new PostgresSearchIndex(database.db) : new SqliteSearchIndex(database.db);
console.log(
  `\nquery (${RUNS} runs, medians)            pages    candidate    today (${databaseUrl ? 'PostgreSQL' : 'SQLite'})   ratio`,
);
for (const text of QUERIES) {
  const clauses = parseQuery(text);
  const plan = planQuery(clauses, await index.expansions(['en'], stemRequests(clauses)));
  const words = plan.must.map((match) =>
    match.kind === 'any'
      ? [...new Set([...match.terms, ...(match.prefix ? completions(match.prefix) : [])])]
      : match.terms,
  );
  const ours: number[] = [];
  const today: number[] = [];
  let found = { count: 0, top: 0 };
  let counted = 0;
  for (let run = 0; run < RUNS; run++) {
    let at = performance.now();
    found = await candidate(words);
    ours.push(performance.now() - at);
    at = performance.now();
    counted = (await index.rank(plan, { spaceIds: [spaceId], includeHidden: false }, undefined, 100)).total;
    today.push(performance.now() - at);
  }
  console.log(
    `${text.padEnd(36)} ${String(found.count).padStart(7)} ${median(ours).toFixed(2).padStart(9)} ms ${median(today).toFixed(2).padStart(11)} ms ${(median(ours) / median(today)).toFixed(2).padStart(7)}${found.count === counted ? '' : `   (today counts ${counted})`}`,
  );
}
await database.close();
await store.close();

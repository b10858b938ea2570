/**
 * Deterministic documentation-like pages for bench/search: a seeded PRNG draws words from a
 * vocabulary of real technical English ordered by frequency, with a Zipf-like distribution
 * (function words first), into pages with an intro, headings, paragraphs, lists and code
 * blocks. A few rare terms and fixed phrases are sprinkled over chosen pages, so queries for
 * them have a known, small or medium set of answers. The pages form a three-level tree.
 */

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FUNCTION_WORDS = `the to a of and is in for you that with this it on be can are as or
  by your if not from an at when use will each which all more has have must only then also one
  other any new two does should these than into before after so but its may there how what no
  same first both once where between without while every most some them they until`.split(/\s+/);

/** Technical words, roughly from most to least frequent; inflected forms are separate words. */
export const TECHNICAL = `page file space request server user data default value set
  content configuration api token access name version change project field list key error
  response example type path database page create run update the client option number time
  query string settings team organization support service account command project build
  install deploy release event message read write delete return object file system network
  status code method header body parameter endpoint resource permission role member admin
  configure configured configuring configurations setting install installed installing
  installation deployment deployed deploying integration integrations application
  applications environment environments variable variables collection collections document
  documents documentation section sections heading link links image images table tables
  search index indexed indexing result results filter sort order limit offset cursor
  session sessions cookie cookies password email domain domains certificate certificates
  proxy cache cached caching memory disk storage backup restore import export format
  markdown editor branch branches merge merged merging commit commits repository git sync
  synchronization webhook webhooks payload signature secret secrets key keys rotate rotation
  authentication authenticate authenticated authorization authorize login logout provider
  identity saml oauth scope scopes grant granted revoke revoked expire expires expiration
  timeout retry retries backoff connection connections pool port host hostname address
  container containers image cluster node nodes replica replicas primary instance instances
  region regions zone latency throughput load balancer traffic rate quota usage billing plan
  invoice customer customers subscription trial upgrade downgrade migration migrations
  schema schemas column columns row rows transaction transactions lock locks queue queues
  worker workers job jobs schedule scheduled task tasks log logs logging metric metrics
  monitoring alert alerts dashboard trace tracing debug debugging warning warnings level
  levels audit visibility public private internal published publish publishing site sites
  theme themes customization custom template templates variant variants language languages
  translation translations locale feature features flag flags preview draft drafts review
  reviews reviewer approve approved comment comments thread threads notification
  notifications mention mentions invite invitation invitations onboarding guide guides
  tutorial reference overview introduction quickstart troubleshooting faq changelog
  requirement requirements dependency dependencies package packages library libraries
  plugin plugins extension extensions module modules function functions argument arguments
  script scripts terminal shell binary directory directories folder folders upload uploads
  download downloads attachment attachments asset assets bucket buckets object objects
  encryption encrypted decrypt hash hashes algorithm key certificate tls ssl https http
  json yaml csv xml html css javascript typescript python docker kubernetes helm terraform
  linux macos windows browser mobile desktop cli sdk rest graphql grpc websocket stream
  streaming batch batches pagination paginated parallel concurrency concurrent thread
  process processes signal restart shutdown startup health check checks probe readiness
  liveness availability reliability performance scalability security compliance privacy
  retention policy policies rule rules constraint constraints validation validate valid
  invalid error errors exception exceptions failure failures fallback recovery incident
  incidents outage maintenance window upgrade compatibility deprecated deprecation legacy
  breaking stable beta experimental enterprise team teams group groups directory provisioning`
  .split(/\s+/)
  .filter(Boolean);

/** Terms that occur in few pages: queries for them return a handful of hits. */
export const RARE = `idempotency kubeconfig backpressure tombstone quiesce memoization hysteresis
  sharding nonce jitter debounce heartbeat watermark checksum sidecar canary bastion
  ephemeral tenancy topology quorum lease leases affinity taint tolerations cgroup seccomp
  apparmor selinux fsync vacuum wal autovacuum tablespace collation tokenizer lexeme
  bigram stemmer trigram levenshtein bloom hyperloglog gossip raft paxos vector clock
  lamport saga outbox inbox dedupe coalesce throttling`
  .split(/\s+/)
  .filter(Boolean);

/** Phrases placed in chosen pages (each in a few hundred), for quoted queries. */
export const PHRASES = [
  'access token',
  'rate limit',
  'connection pool',
  'environment variable',
  'service account',
  'read replica',
  'feature flag',
  'retry policy',
  'health check',
  'change request',
  'single sign on',
  'custom domain',
  'audit log',
  'background job',
  'default branch',
  'load balancer',
  'private key',
  'webhook signature',
  'time to live',
  'content security policy',
  'two factor authentication',
  'point in time recovery',
  'zero downtime deployment',
  'dead letter queue',
];

const TITLE_WORDS = TECHNICAL.filter((w) => w.length > 3);
const GROUP_TITLES = [
  'Getting Started',
  'Installation',
  'Configuration',
  'Authentication',
  'Authorization',
  'Content Editing',
  'Publishing',
  'Integrations',
  'Webhooks',
  'API Reference',
  'Command Line',
  'Deployment',
  'Monitoring',
  'Storage',
  'Security',
  'Billing',
  'Teams and Members',
  'Search',
  'Troubleshooting',
  'Release Notes',
];

export interface GeneratedSection {
  heading: string;
  paragraphs: string[];
  list: string[];
  code: { lang: string; lines: string[] } | null;
}

export interface GeneratedPage {
  index: number;
  /** Index of the parent page, or null at the top level. */
  parent: number | null;
  title: string;
  intro: string[];
  sections: GeneratedSection[];
}

const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

export class Corpus {
  readonly pages: GeneratedPage[] = [];
  /** Pages each rare term and phrase was placed in. */
  readonly rareIn = new Map<string, number>();
  readonly phraseIn = new Map<string, number>();
  private readonly random: () => number;
  private readonly vocabulary: string[];
  private readonly cumulative: number[];

  constructor(count: number, seed = 20_240_601) {
    this.random = prng(seed);
    this.vocabulary = [...new Set([...FUNCTION_WORDS, ...TECHNICAL])];
    // Zipf-like: weight 1 / (rank + 2.7), with function words holding the top ranks.
    let total = 0;
    this.cumulative = this.vocabulary.map((_, rank) => {
      total += 1 / (rank + 2.7);
      return total;
    });
    // The tree: 20 groups, 25 topics in each, the rest spread as their children.
    const groups = GROUP_TITLES.length;
    const topics = Math.min(groups * 25, Math.max(0, count - groups));
    for (let i = 0; i < count; i++) {
      let parent: number | null;
      if (i < groups) parent = null;
      else if (i < groups + topics) parent = (i - groups) % groups;
      else parent = groups + ((i - groups - topics) % Math.max(1, topics));
      this.pages.push(this.page(i, parent, i < groups ? GROUP_TITLES[i]! : undefined));
    }
    this.sprinkle(RARE, this.rareIn, () => 2 + Math.floor(this.random() ** 2 * 40));
    this.sprinkle(PHRASES, this.phraseIn, () => 50 + Math.floor(this.random() * 400));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private word(): string {
    const target = this.random() * this.cumulative[this.cumulative.length - 1]!;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return this.vocabulary[lo]!;
  }

  private sentence(min = 8, max = 20): string {
    const n = min + Math.floor(this.random() * (max - min + 1));
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.word());
    return `${capitalize(out.join(' '))}.`;
  }

  private paragraph(): string {
    const n = 2 + Math.floor(this.random() * 3);
    return Array.from({ length: n }, () => this.sentence()).join(' ');
  }

  private titleWords(n: number): string {
    return Array.from({ length: n }, () => capitalize(this.pick(TITLE_WORDS))).join(' ');
  }

  private code(): GeneratedSection['code'] {
    const kind = Math.floor(this.random() * 3);
    if (kind === 0)
      return {
        lang: 'bash',
        lines: [
          `quire ${this.pick(TITLE_WORDS)} ${this.pick(TITLE_WORDS)} --${this.pick(TITLE_WORDS)}=${this.pick(TITLE_WORDS)}`,
          `export QUIRE_${this.pick(TITLE_WORDS).toUpperCase()}=${Math.floor(this.random() * 1000)}`,
        ],
      };
    if (kind === 1)
      return {
        lang: 'yaml',
        lines: [
          `${this.pick(TITLE_WORDS)}:`,
          `  ${this.pick(TITLE_WORDS)}: ${this.pick(TITLE_WORDS)}`,
          `  ${this.pick(TITLE_WORDS)}: ${Math.floor(this.random() * 100)}`,
        ],
      };
    return {
      lang: 'json',
      lines: [
        `{ "${this.pick(TITLE_WORDS)}": "${this.pick(TITLE_WORDS)}", "${this.pick(TITLE_WORDS)}": ${Math.floor(this.random() * 100)} }`,
      ],
    };
  }

  private page(index: number, parent: number | null, title?: string): GeneratedPage {
    const sections: GeneratedSection[] = [];
    const n = 2 + Math.floor(this.random() * 2);
    for (let s = 0; s < n; s++) {
      const paragraphs = Array.from({ length: 1 + Math.floor(this.random() * 2) }, () => this.paragraph());
      const list =
        this.random() < 0.5
          ? Array.from({ length: 3 + Math.floor(this.random() * 3) }, () => this.sentence(4, 9))
          : [];
      sections.push({
        heading: this.titleWords(2 + Math.floor(this.random() * 2)),
        paragraphs,
        list,
        code: this.random() < 0.35 ? this.code() : null,
      });
    }
    return {
      index,
      parent,
      title: title ?? this.titleWords(2 + Math.floor(this.random() * 3)),
      intro: [this.paragraph()],
      sections,
    };
  }

  /** Puts each term in `count()` random pages, in a sentence of a random section. */
  private sprinkle(terms: string[], placed: Map<string, number>, count: () => number): void {
    for (const term of terms) {
      const n = Math.min(count(), this.pages.length);
      const chosen = new Set<number>();
      while (chosen.size < n) chosen.add(Math.floor(this.random() * this.pages.length));
      for (const i of chosen) {
        const page = this.pages[i]!;
        const section = this.pick(page.sections);
        const at = Math.floor(this.random() * section.paragraphs.length);
        section.paragraphs[at] =
          `${section.paragraphs[at]} ${capitalize(this.word())} ${this.word()} ${term} ${this.word()} ${this.word()}.`;
      }
      placed.set(term, n);
    }
  }

  /** A frequent content word (for queries): ranks 60-200 of the vocabulary. */
  commonWord(): string {
    return this.vocabulary[FUNCTION_WORDS.length + Math.floor(this.random() * 140)]!;
  }

  /** Any content word, with the corpus' distribution, function words skipped. */
  contentWord(): string {
    for (;;) {
      const w = this.word();
      if (!FUNCTION_WORDS.includes(w)) return w;
    }
  }

  rareWord(): string {
    return this.pick(RARE);
  }

  phrase(): string {
    return this.pick(PHRASES);
  }

  chance(): number {
    return this.random();
  }
}

export function toMarkdown(page: GeneratedPage): string {
  const out: string[] = [...page.intro];
  for (const section of page.sections) {
    out.push(`## ${section.heading}`);
    out.push(...section.paragraphs);
    if (section.list.length > 0) out.push(section.list.map((item) => `- ${item}`).join('\n'));
    if (section.code) out.push(`\`\`\`${section.code.lang}\n${section.code.lines.join('\n')}\n\`\`\``);
  }
  return `${out.join('\n\n')}\n`;
}

/** The same page as MiniSearch gets it: title, headings, and the rest of the text. */
export function toDocument(page: GeneratedPage): {
  id: number;
  title: string;
  headings: string;
  body: string;
} {
  const body: string[] = [...page.intro];
  for (const section of page.sections) {
    body.push(...section.paragraphs, ...section.list);
    if (section.code) body.push(...section.code.lines);
  }
  return {
    id: page.index,
    title: page.title,
    headings: page.sections.map((s) => s.heading).join('\n'),
    body: body.join('\n'),
  };
}

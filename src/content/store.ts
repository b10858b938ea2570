import type { Db, Tx } from '../db/database.js';
import { Lru } from '../lru.js';
import { canonicalJson } from './canonical-json.js';
import { CowMap } from './cow-map.js';
import { getObjects, objectHash, putObjects } from './objects.js';
import { noteDerivation, type PageIndexes, pageIndexesOf } from './page-indexes.js';
import { shareNodeStrings } from './shared-strings.js';
import type {
  FileNode,
  PageNode,
  RepositoryFiles,
  ReusableContentNode,
  RevisionContent,
  VariableValue,
} from './tree.js';

/**
 * How revision contents are stored. Every piece is an object in the content-addressed store:
 * - each page and file node is an object (its canonical JSON);
 * - nodes are listed in bucket objects (id -> node hash): the root has 64 slots, an id going
 *   to the slot its hash picks; a bucket that outgrows LEAF_MAX entries splits into 16 buckets
 *   on the next bits of the hash, so buckets stay small however large the space grows;
 * - the tree root lists the slot hashes, the reusable contents and the variables.
 * A new revision writes only the nodes that changed, the buckets on their way down and a new
 * root, so its cost follows the change (and the log of the space's size), not the size; unchanged
 * objects are shared by every revision that has them.
 */

const SLOTS = 64;
const FANOUT = 16;
const LEAF_MAX = 64;
/** 6 bits pick the slot, then 4 per level: 32-bit hashes allow 6 levels of splits. */
const MAX_DEPTH = 6;

interface TreeRoot {
  v: 1;
  pages: Array<string | null>;
  files: Array<string | null>;
  reusable: ReusableContentNode[];
  variables: Record<string, VariableValue>;
  repository?: RepositoryFiles;
}

/** A leaf lists ids; a split (under the key `*`, which no id uses) lists the buckets below it. */
type Leaf = Record<string, string>;
type Split = { '*': Array<string | null> };
type Bucket = Leaf | Split;

const isSplit = (bucket: Bucket): bucket is Split => Array.isArray((bucket as Split)['*']);

/** A tree as read (or just written): the revision content and its node hashes. */
export class Snapshot {
  constructor(
    readonly treeHash: string,
    readonly root: TreeRoot,
    readonly content: RevisionContent,
    /** Node object hash of each page and file, to tell what changed without comparing nodes. */
    readonly pageHashes: ReadonlyMap<string, string>,
    readonly fileHashes: ReadonlyMap<string, string>,
  ) {}

  /**
   * The pages by parent and by slug, kept per content: a tree written from another derives its
   * own from the other's at the cost of its changes, even when the other's were never asked for
   * (a merge that fast-forwards asks for the indexes of the tree it does not keep).
   */
  indexes(): PageIndexes {
    return pageIndexesOf(this.content);
  }
}

export interface TreeDiff {
  pages: Set<string>;
  files: Set<string>;
}

export interface TreeChanges {
  pages?: Iterable<string>;
  files?: Iterable<string>;
  reusable?: boolean;
  variables?: boolean;
}

/** FNV-1a: a stable, fast spread of ids. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The position of an id in a bucket list at `depth` (0: the root's slots). */
function slotOf(id: string, depth: number): number {
  const h = hashOf(id);
  return depth === 0 ? h % SLOTS : (h >>> (6 + 4 * (depth - 1))) % FANOUT;
}

const EMPTY_ROOT: TreeRoot = {
  v: 1,
  pages: new Array(SLOTS).fill(null),
  files: new Array(SLOTS).fill(null),
  reusable: [],
  variables: {},
};

/** Pages and files of the kept snapshots in all: ten revisions of a 100,000-page space. */
const SNAPSHOT_ENTRIES = 1_000_000;

export class ContentStore {
  /** Parsed objects by hash: content-addressed objects never change, so this never goes stale. */
  private readonly objects = new Lru<string, unknown>(50_000);
  /**
   * Snapshots recently read or written, weighed by their pages and files. A snapshot written from
   * another shares most of its maps with it (copies of copies), but not always: counted only, 64
   * of them held every revision of a space imported 1,000 pages a write, each copy over a base of
   * its own, 600 MB of maps at 100,000 pages whose marking slowed every request (bench/scale).
   */
  private readonly snapshots = new Lru<string, Snapshot>(64, {
    weigh: (s) => 1 + s.content.pages.size + s.content.files.size,
    maxWeight: SNAPSHOT_ENTRIES,
  });

  /** The tree of an empty space. */
  async emptyTree(tx: Tx | Db): Promise<string> {
    const [hash] = await putObjects(tx, [canonicalJson(EMPTY_ROOT)]);
    return hash!;
  }

  private async parsed<T>(db: Tx | Db, hashes: string[]): Promise<Map<string, T>> {
    const result = new Map<string, T>();
    const missing: string[] = [];
    for (const hash of hashes) {
      const known = this.objects.get(hash);
      if (known === undefined) missing.push(hash);
      else result.set(hash, known as T);
    }
    if (missing.length > 0) {
      const rows = await getObjects(db, missing);
      for (const hash of missing) {
        const data = rows.get(hash);
        if (data === undefined) throw new Error(`content object ${hash} is missing from the store`);
        const value = JSON.parse(data) as T;
        this.objects.set(hash, value);
        result.set(hash, value);
      }
    }
    return result;
  }

  async snapshot(db: Tx | Db, treeHash: string): Promise<Snapshot> {
    const cached = this.snapshots.get(treeHash);
    if (cached) return cached;
    const root = (await this.parsed<TreeRoot>(db, [treeHash])).get(treeHash)!;
    const near = this.nearest(root);
    const snapshot = near
      ? await this.derived(db, treeHash, root, near)
      : await this.loaded(db, treeHash, root);
    this.snapshots.set(treeHash, snapshot);
    return snapshot;
  }

  /**
   * The kept snapshot sharing the most of `root`'s page buckets, if any: an earlier revision of
   * the same space, most often, read or written here (two spaces share no bucket: their buckets
   * list different ids). Another process's merge moves a space to a tree this process never saw;
   * read from such a snapshot, it costs the change, not the space (see `derived`). A large change
   * leaves few of the root's 64 buckets as they were, but the buckets below them mostly are.
   */
  private nearest(root: TreeRoot): Snapshot | undefined {
    let best: Snapshot | undefined;
    let bestShared = 0;
    for (const candidate of this.snapshots.values()) {
      let shared = 0;
      for (let i = 0; i < root.pages.length; i++)
        if (root.pages[i] !== null && candidate.root.pages[i] === root.pages[i]) shared++;
      if (shared > bestShared) {
        best = candidate;
        bestShared = shared;
      }
    }
    return best;
  }

  /**
   * A tree read from a kept one: the page and file ids whose node hashes differ are found by
   * walking the buckets whose hashes differ (as `diff` does), only their nodes are read, and the
   * maps are copies of the kept ones with those entries changed; the page indexes then derive
   * from the kept tree's at the cost of the change. Measured on the bench's 100,000-page space, a
   * store following five one-page writes made by another store (scratch, in-process): 3.5-4.5 s
   * each read whole with its page index, 1-3 ms each so.
   */
  private async derived(db: Tx | Db, treeHash: string, root: TreeRoot, near: Snapshot): Promise<Snapshot> {
    const pageChanges = await this.changes(db, near.root.pages, root.pages);
    const fileChanges = await this.changes(db, near.root.files, root.files);
    const hashes = [...pageChanges.values(), ...fileChanges.values()].filter((h): h is string => h !== null);
    const nodes = await this.parsed<PageNode | FileNode>(db, hashes);
    const pageHashes = CowMap.of(near.pageHashes);
    const pages = CowMap.of(near.content.pages);
    for (const [id, hash] of pageChanges) {
      if (hash === null) {
        pageHashes.delete(id);
        pages.delete(id);
      } else {
        pageHashes.set(id, hash);
        pages.set(id, nodes.get(hash) as PageNode);
      }
    }
    const fileHashes = CowMap.of(near.fileHashes);
    const files = CowMap.of(near.content.files);
    for (const [id, hash] of fileChanges) {
      if (hash === null) {
        fileHashes.delete(id);
        files.delete(id);
      } else {
        fileHashes.set(id, hash);
        files.set(id, nodes.get(hash) as FileNode);
      }
    }
    const content = this.contentOf(root, pages, files);
    noteDerivation(content, near.content, {
      pages: new Set(pageChanges.keys()),
      files: new Set(fileChanges.keys()),
      reusable: true,
    });
    return new Snapshot(treeHash, root, content, pageHashes, fileHashes);
  }

  /** A tree read whole. */
  private async loaded(db: Tx | Db, treeHash: string, root: TreeRoot): Promise<Snapshot> {
    const pageHashes = await this.collect(db, root.pages);
    const fileHashes = await this.collect(db, root.files);
    const nodes = await this.parsed<PageNode | FileNode>(db, [
      ...pageHashes.values(),
      ...fileHashes.values(),
    ]);
    const pages = new Map<string, PageNode>();
    for (const [id, hash] of pageHashes) pages.set(id, nodes.get(hash) as PageNode);
    shareNodeStrings(pages);
    const files = new Map<string, FileNode>();
    for (const [id, hash] of fileHashes) files.set(id, nodes.get(hash) as FileNode);
    return new Snapshot(treeHash, root, this.contentOf(root, pages, files), pageHashes, fileHashes);
  }

  private contentOf(
    root: TreeRoot,
    pages: ReadonlyMap<string, PageNode>,
    files: ReadonlyMap<string, FileNode>,
  ): RevisionContent {
    return {
      pages,
      files,
      reusableContents: new Map(root.reusable.map((r) => [r.id, r])),
      variables: root.variables,
      ...(root.repository ? { repository: root.repository } : {}),
    };
  }

  /**
   * Ids of the pages and files whose nodes differ between two trees, found by walking down only
   * the buckets whose hashes differ: the cost follows the difference, not the size of the trees.
   */
  async diff(db: Tx | Db, from: Snapshot, to: Snapshot): Promise<TreeDiff> {
    if (from.treeHash === to.treeHash) return { pages: new Set(), files: new Set() };
    return {
      pages: await this.diffLists(db, from.root.pages, to.root.pages),
      files: await this.diffLists(db, from.root.files, to.root.files),
    };
  }

  private async diffLists(
    db: Tx | Db,
    left: Array<string | null>,
    right: Array<string | null>,
  ): Promise<Set<string>> {
    return new Set((await this.changes(db, left, right)).keys());
  }

  /**
   * The ids whose node hashes differ between two bucket lists, with their hash on the right (null:
   * gone), found by walking down only the buckets whose hashes differ.
   */
  private async changes(
    db: Tx | Db,
    left: Array<string | null>,
    right: Array<string | null>,
  ): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    for (let i = 0; i < Math.max(left.length, right.length); i++) {
      const a = left[i] ?? null;
      const b = right[i] ?? null;
      if (a === b) continue;
      const [bucketA, bucketB] = await Promise.all([this.bucket(db, a), this.bucket(db, b)]);
      if (isSplit(bucketA) && isSplit(bucketB)) {
        for (const [id, hash] of await this.changes(db, bucketA['*'], bucketB['*'])) out.set(id, hash);
        continue;
      }
      const [entriesA, entriesB] = await Promise.all([this.collect(db, [a]), this.collect(db, [b])]);
      for (const [id, hash] of entriesB) if (entriesA.get(id) !== hash) out.set(id, hash);
      for (const id of entriesA.keys()) if (!entriesB.has(id)) out.set(id, null);
    }
    return out;
  }

  private async bucket(db: Tx | Db, hash: string | null): Promise<Bucket> {
    return hash ? (await this.parsed<Bucket>(db, [hash])).get(hash)! : {};
  }

  /** Every id -> node hash listed under the given buckets, one read per level. */
  private async collect(db: Tx | Db, list: Array<string | null>): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    let level = list.filter((h): h is string => h !== null);
    while (level.length > 0) {
      const buckets = await this.parsed<Bucket>(db, level);
      const next: string[] = [];
      for (const hash of level) {
        const bucket = buckets.get(hash)!;
        if (isSplit(bucket)) for (const child of bucket['*']) child && next.push(child);
        else for (const [id, node] of Object.entries(bucket)) ids.set(id, node);
      }
      level = next;
    }
    return ids;
  }

  async readBody(db: Tx | Db, hash: string): Promise<string> {
    return (await this.parsed<string>(db, [hash])).get(hash)!;
  }

  async readBodies(db: Tx | Db, hashes: string[]): Promise<Map<string, string>> {
    return this.parsed<string>(db, hashes);
  }

  /** Stores page bodies (markdown) and answers their hashes. */
  async putBodies(tx: Tx, markdowns: string[]): Promise<string[]> {
    const hashes = await putObjects(
      tx,
      markdowns.map((m) => JSON.stringify(m)),
    );
    for (const [i, m] of markdowns.entries()) this.objects.set(hashes[i]!, m);
    return hashes;
  }

  /** The hash a body would be stored under (without storing it). */
  bodyHash(markdown: string): string {
    return objectHash(JSON.stringify(markdown));
  }

  /**
   * Writes `next`, derived from `base` by the listed changes, and answers its tree hash. Only
   * the changed nodes, the buckets listing them and the root are written.
   */
  async writeTree(tx: Tx, base: Snapshot, next: RevisionContent, changes: TreeChanges): Promise<string> {
    // Copies that share the base's entries: their cost follows the change, not the tree's size.
    const pageHashes = CowMap.of(base.pageHashes);
    const fileHashes = CowMap.of(base.fileHashes);
    const root: TreeRoot = {
      v: 1,
      pages: [...base.root.pages],
      files: [...base.root.files],
      reusable: changes.reusable ? [...next.reusableContents.values()] : base.root.reusable,
      variables: changes.variables ? { ...next.variables } : base.root.variables,
      // A few hashes: always the next content's (canonical JSON leaves an absent one out).
      repository: next.repository,
    };
    const pending: string[] = [];
    const pendingHashes: string[] = [];
    const queue = (value: unknown): string => {
      const data = canonicalJson(value);
      pending.push(data);
      const hash = objectHash(data);
      pendingHashes.push(hash);
      this.objects.set(hash, value);
      return hash;
    };

    /** The bucket at `hash` (null: none yet) with `ids` set to their new hashes; null when empty. */
    const update = async (
      hash: string | null,
      depth: number,
      ids: string[],
      hashes: ReadonlyMap<string, string>,
    ): Promise<string | null> => {
      const bucket = await this.bucket(tx, hash);
      if (isSplit(bucket)) {
        const children = [...bucket['*']];
        for (const [slot, inSlot] of groupBy(ids, (id) => slotOf(id, depth + 1)))
          children[slot] = await update(children[slot] ?? null, depth + 1, inSlot, hashes);
        return children.some((c) => c !== null) ? queue({ '*': children }) : null;
      }
      const leaf: Leaf = { ...bucket };
      for (const id of ids) {
        const node = hashes.get(id);
        if (node) leaf[id] = node;
        else delete leaf[id];
      }
      const entries = Object.keys(leaf);
      if (entries.length === 0) return null;
      if (entries.length <= LEAF_MAX || depth >= MAX_DEPTH) return queue(leaf);
      const children: Array<string | null> = new Array(FANOUT).fill(null);
      for (const [slot, inSlot] of groupBy(entries, (id) => slotOf(id, depth + 1)))
        children[slot] = queue(Object.fromEntries(inSlot.map((id) => [id, leaf[id]!])));
      return queue({ '*': children });
    };

    const rewrite = async (
      ids: Set<string>,
      nodes: ReadonlyMap<string, PageNode | FileNode>,
      hashes: CowMap<string, string>,
      list: Array<string | null>,
    ) => {
      for (const id of ids) {
        const node = nodes.get(id);
        if (node) hashes.set(id, queue(node));
        else hashes.delete(id);
      }
      for (const [slot, inSlot] of groupBy(ids, (id) => slotOf(id, 0)))
        list[slot] = await update(list[slot] ?? null, 0, inSlot, hashes);
    };

    const changedPages = new Set(changes.pages ?? []);
    const changedFiles = new Set(changes.files ?? []);
    await rewrite(changedPages, next.pages, pageHashes, root.pages);
    await rewrite(changedFiles, next.files, fileHashes, root.files);
    const treeHash = queue(root);
    await putObjects(tx, pending, pendingHashes);
    // Indexes of the content (page indexes and paths, the repository layout) derive from base's.
    noteDerivation(next, base.content, {
      pages: changedPages,
      files: changedFiles,
      reusable: changes.reusable ?? false,
    });
    this.snapshots.set(treeHash, new Snapshot(treeHash, root, next, pageHashes, fileHashes));
    return treeHash;
  }
}

function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

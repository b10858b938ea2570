import type { Db, Tx } from '../db/database.js';
import { Lru } from '../lru.js';
import { canonicalJson } from './canonical-json.js';
import { getObjects, objectHash, putObjects } from './objects.js';
import type { FileNode, PageNode, ReusableContentNode, RevisionContent, VariableValue } from './tree.js';

/**
 * How revision contents are stored. Every piece is an object in the content-addressed store:
 * - each page and file node is an object (its canonical JSON);
 * - nodes are listed in 64 bucket objects (id -> node hash), a page going to the bucket its id
 *   hashes to;
 * - the tree root lists the bucket hashes, the reusable contents and the variables.
 * A new revision writes only the nodes that changed, the buckets that list them and a new
 * root, so its cost follows the change, not the size of the space; unchanged objects are
 * shared by every revision that has them.
 */

const BUCKETS = 64;

interface TreeRoot {
  v: 1;
  pages: Array<string | null>;
  files: Array<string | null>;
  reusable: ReusableContentNode[];
  variables: Record<string, VariableValue>;
}

type Bucket = Record<string, string>;

export interface Snapshot {
  treeHash: string;
  root: TreeRoot;
  content: RevisionContent;
  /** Node object hash of each page and file, to tell what changed without comparing nodes. */
  pageHashes: ReadonlyMap<string, string>;
  fileHashes: ReadonlyMap<string, string>;
}

export interface TreeChanges {
  pages?: Iterable<string>;
  files?: Iterable<string>;
  reusable?: boolean;
  variables?: boolean;
}

/** FNV-1a: a stable, fast spread of ids over buckets. */
function bucketOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % BUCKETS;
}

const EMPTY_ROOT: TreeRoot = {
  v: 1,
  pages: new Array(BUCKETS).fill(null),
  files: new Array(BUCKETS).fill(null),
  reusable: [],
  variables: {},
};

export class ContentStore {
  /** Parsed objects by hash: content-addressed objects never change, so this never goes stale. */
  private readonly objects = new Lru<string, unknown>(50_000);
  private readonly snapshots = new Lru<string, Snapshot>(64);

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
    const bucketHashes = [...root.pages, ...root.files].filter((h): h is string => h !== null);
    const buckets = await this.parsed<Bucket>(db, bucketHashes);
    const collect = (list: Array<string | null>) => {
      const ids = new Map<string, string>();
      for (const hash of list)
        if (hash) for (const [id, node] of Object.entries(buckets.get(hash)!)) ids.set(id, node);
      return ids;
    };
    const pageHashes = collect(root.pages);
    const fileHashes = collect(root.files);
    const nodes = await this.parsed<PageNode | FileNode>(db, [
      ...pageHashes.values(),
      ...fileHashes.values(),
    ]);
    const pages = new Map<string, PageNode>();
    for (const [id, hash] of pageHashes) pages.set(id, nodes.get(hash) as PageNode);
    const files = new Map<string, FileNode>();
    for (const [id, hash] of fileHashes) files.set(id, nodes.get(hash) as FileNode);
    const snapshot: Snapshot = {
      treeHash,
      root,
      content: {
        pages,
        files,
        reusableContents: new Map(root.reusable.map((r) => [r.id, r])),
        variables: root.variables,
      },
      pageHashes,
      fileHashes,
    };
    this.snapshots.set(treeHash, snapshot);
    return snapshot;
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
    const pageHashes = new Map(base.pageHashes);
    const fileHashes = new Map(base.fileHashes);
    const root: TreeRoot = {
      v: 1,
      pages: [...base.root.pages],
      files: [...base.root.files],
      reusable: changes.reusable ? [...next.reusableContents.values()] : base.root.reusable,
      variables: changes.variables ? { ...next.variables } : base.root.variables,
    };
    const pending: string[] = [];
    const queue = (value: unknown): string => {
      const data = canonicalJson(value);
      pending.push(data);
      const hash = objectHash(data);
      this.objects.set(hash, value);
      return hash;
    };

    const rewrite = async (
      ids: Set<string>,
      nodes: ReadonlyMap<string, PageNode | FileNode>,
      hashes: Map<string, string>,
      list: Array<string | null>,
    ) => {
      const byBucket = new Map<number, string[]>();
      for (const id of ids) {
        const node = nodes.get(id);
        if (node) hashes.set(id, queue(node));
        else hashes.delete(id);
        const b = bucketOf(id);
        byBucket.set(b, [...(byBucket.get(b) ?? []), id]);
      }
      const old = await this.parsed<Bucket>(
        tx,
        [...byBucket.keys()].map((b) => list[b]).filter((h): h is string => !!h),
      );
      for (const [b, inBucket] of byBucket) {
        const bucket: Bucket = { ...(list[b] ? old.get(list[b]!) : {}) };
        for (const id of inBucket) {
          const hash = hashes.get(id);
          if (hash) bucket[id] = hash;
          else delete bucket[id];
        }
        list[b] = Object.keys(bucket).length > 0 ? queue(bucket) : null;
      }
    };

    await rewrite(new Set(changes.pages ?? []), next.pages, pageHashes, root.pages);
    await rewrite(new Set(changes.files ?? []), next.files, fileHashes, root.files);
    const treeHash = queue(root);
    await putObjects(tx, pending);
    this.snapshots.set(treeHash, { treeHash, root, content: next, pageHashes, fileHashes });
    return treeHash;
  }
}

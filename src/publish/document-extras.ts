import { parse as parseYaml } from 'yaml';
import type { ContentService, OpenContent } from '../areas/content/service.js';
import type { MembersService } from '../areas/members/service.js';
import type { JsonDocument } from '../content/document-schema.js';
import type { ContentStore } from '../content/store.js';
import type { Db } from '../db/database.js';
import type { PublishedSpec } from './site-data.js';
import { loadSpecDocuments, type SpecDocumentsNeeds, type SpecRef, specRefOf } from './spec-documents.js';

/** The services a page's extras are read through. */
export interface DocumentExtrasNeeds extends SpecDocumentsNeeds {
  content: Pick<ContentService, 'reusableDocument'>;
  members: Pick<MembersService, 'namesAmong'>;
  store: Pick<ContentStore, 'readBody'>;
}

/**
 * What a page's document names besides pages and files, read before it is drawn (the renderer
 * is synchronous): the reusable contents it includes (and those they include), the names of the
 * people it mentions (members of the space's organization only), the labels of its update tags,
 * the OpenAPI documents its API blocks draw (by `specKey`).
 */
export interface DocumentExtras {
  reusable: Map<string, JsonDocument>;
  users: Map<string, string>;
  tags: Map<string, string>;
  specs: Map<string, unknown>;
}

/** Includes inside includes are followed this deep, and this many in all. */
const MAX_DEPTH = 5;
const MAX_INCLUDES = 50;

export async function documentExtras(
  db: Db,
  services: DocumentExtrasNeeds,
  open: OpenContent,
  document: JsonDocument,
  /** The organization's specifications as the site data has them. */
  specs: Map<string, PublishedSpec>,
): Promise<DocumentExtras> {
  const extras: DocumentExtras = { reusable: new Map(), users: new Map(), tags: new Map(), specs: new Map() };
  const userIds = new Set<string>();
  const specRefs: SpecRef[] = [];
  let tagged = false;
  let pending = [...collect(document, userIds, specRefs, () => (tagged = true))];
  for (let depth = 0; depth < MAX_DEPTH && pending.length > 0; depth++) {
    const next: string[] = [];
    for (const id of pending) {
      if (extras.reusable.has(id) || extras.reusable.size >= MAX_INCLUDES) continue;
      const included = await services.content.reusableDocument(open, id, 'render');
      if (!included) continue;
      extras.reusable.set(id, included);
      next.push(...collect(included, userIds, specRefs, () => (tagged = true)));
    }
    pending = next;
  }
  if (userIds.size > 0) {
    const names = await services.members.namesAmong(open.space.org_id, [...userIds].slice(0, 200));
    for (const [id, name] of names) extras.users.set(id, name);
  }
  if (tagged) for (const [slug, label] of await tagLabels(db, services, open)) extras.tags.set(slug, label);
  if (specRefs.length > 0) extras.specs = await loadSpecDocuments(services, open, specs, specRefs);
  return extras;
}

/** Reusable contents, mentioned users, API specifications and whether update tags appear, in a document. */
function collect(document: JsonDocument, users: Set<string>, specs: SpecRef[], onTag: () => void): string[] {
  const reusable: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const node = value as {
      type?: string;
      data?: Record<string, unknown>;
      nodes?: unknown;
      fragments?: unknown;
    };
    const ref = node.data?.ref as
      | { kind?: string; reusableContent?: string; user?: string; space?: string }
      | undefined;
    if (node.type === 'reusable-content' && ref?.reusableContent && !ref.space)
      reusable.push(ref.reusableContent);
    if (node.type === 'mention' && ref?.kind === 'user' && ref.user) users.add(ref.user);
    const spec = specRefOf(node.type, ref);
    if (spec) specs.push(spec);
    if (node.type === 'update' && Array.isArray(node.data?.tags) && node.data.tags.length > 0) onTag();
    visit(node.nodes);
    visit(node.fragments);
  };
  visit(document.nodes);
  return reusable;
}

const labels = new WeakMap<object, Map<string, string>>();

/** Tag slugs to labels, from the space's `.gitbook/tags.yaml` as its repository had it. */
async function tagLabels(
  db: Db,
  services: DocumentExtrasNeeds,
  open: OpenContent,
): Promise<Map<string, string>> {
  const content = open.snapshot.content;
  const known = labels.get(content);
  if (known) return known;
  const out = new Map<string, string>();
  const files = content.repository?.files ?? {};
  const path = Object.keys(files).find(
    (p) => p === '.gitbook/tags.yaml' || p.endsWith('/.gitbook/tags.yaml'),
  );
  if (path) {
    try {
      const list = parseYaml(await services.store.readBody(db, files[path]!)) as unknown;
      if (Array.isArray(list))
        for (const item of list as Array<{ tag?: unknown; label?: unknown }>)
          if (typeof item?.tag === 'string')
            out.set(item.tag, typeof item.label === 'string' ? item.label : item.tag);
    } catch {
      // A tags file that does not read gives slugs as labels.
    }
  }
  labels.set(content, out);
  return out;
}

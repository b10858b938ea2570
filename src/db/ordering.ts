import { invalidField } from '../errors.js';
import type { Tx } from './database.js';

/**
 * Order among siblings: the spaces and collections sharing a parent (or the organization's top
 * level) interleave by an integer `position`. New positions go in the gap between neighbours;
 * only when a gap is used up are the siblings renumbered.
 */

const GAP = 65_536;

export type SiblingPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface Placement {
  before?: SiblingPointer | undefined;
  after?: SiblingPointer | undefined;
}

interface Sibling {
  kind: 'space' | 'collection';
  id: string;
  position: number;
}

function pointerOf(p: SiblingPointer): { kind: 'space' | 'collection'; id: string } {
  return p.type === 'space' ? { kind: 'space', id: p.space } : { kind: 'collection', id: p.collection };
}

async function siblings(
  tx: Tx,
  orgId: string,
  parentId: string | null,
  exclude: string | undefined,
): Promise<Sibling[]> {
  const of = async (kind: 'space' | 'collection') => {
    let q = tx
      .selectFrom(kind === 'space' ? 'spaces' : 'collections')
      .select(['id', 'position'])
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null);
    q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
    if (exclude) q = q.where('id', '!=', exclude);
    return (await q.execute()).map((r) => ({ kind, id: r.id, position: Number(r.position) }));
  };
  const all = [...(await of('space')), ...(await of('collection'))];
  return all.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}

/** The highest position among the siblings (0 when there are none), from the index of 0032 alone. */
async function lastPosition(
  tx: Tx,
  orgId: string,
  parentId: string | null,
  exclude: string | undefined,
): Promise<number> {
  const last = async (table: 'spaces' | 'collections') => {
    let q = tx
      .selectFrom(table)
      .select((eb) => eb.fn.max('position').as('last'))
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null);
    q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
    if (exclude) q = q.where('id', '!=', exclude);
    const row = await q.executeTakeFirst();
    return row?.last == null ? undefined : Number(row.last);
  };
  const found = [await last('spaces'), await last('collections')].filter((p) => p !== undefined);
  return found.length > 0 ? Math.max(...found) : 0;
}

async function renumber(tx: Tx, list: Sibling[]): Promise<void> {
  for (const [i, s] of list.entries()) {
    s.position = (i + 1) * GAP;
    await tx
      .updateTable(s.kind === 'space' ? 'spaces' : 'collections')
      .set({ position: s.position })
      .where('id', '=', s.id)
      .execute();
  }
}

/**
 * The position for `movingId` (or a new item) under `parentId`: at the end, or just before or
 * after a sibling. A pointer to something that is not a sibling there is a 400 naming `field`.
 */
export async function placeAmongSiblings(
  tx: Tx,
  orgId: string,
  parentId: string | null,
  placement: Placement | undefined,
  movingId?: string,
  field = 'body.position',
): Promise<number> {
  const anchorPointer = placement?.before ?? placement?.after;
  if (!anchorPointer) return (await lastPosition(tx, orgId, parentId, movingId)) + GAP;
  const list = await siblings(tx, orgId, parentId, movingId);

  const which = placement?.before ? 'before' : 'after';
  const anchor = pointerOf(anchorPointer);
  let index = list.findIndex((s) => s.kind === anchor.kind && s.id === anchor.id);
  if (index < 0) {
    throw invalidField(
      `${field}.${which}`,
      `${anchor.kind} "${anchor.id}" is not a sibling in the target ${parentId ? 'collection' : 'organization top level'}`,
    );
  }
  const gapAt = (i: number) => {
    const low =
      which === 'before' ? (list[i - 1]?.position ?? list[i]!.position - 2 * GAP) : list[i]!.position;
    const high =
      which === 'before' ? list[i]!.position : (list[i + 1]?.position ?? list[i]!.position + 2 * GAP);
    return { low, high };
  };
  let { low, high } = gapAt(index);
  if (high - low < 2) {
    await renumber(tx, list);
    index = list.findIndex((s) => s.kind === anchor.kind && s.id === anchor.id);
    ({ low, high } = gapAt(index));
  }
  return Math.floor((low + high) / 2);
}

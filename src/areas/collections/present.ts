import { collectionPermissions } from '../../auth/content-policy.js';
import type { MemberRole } from '../../auth/roles.js';
import type { CollectionsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { Collection } from './schemas.js';

export interface CollectionView {
  row: CollectionsTable;
  role: MemberRole | null;
}

export function presentCollection({ row, role }: CollectionView, urls: Urls): Collection {
  const collection: Collection = {
    object: 'collection',
    id: row.id,
    title: row.title,
    organization: row.org_id,
    defaultLevel: row.default_level,
    urls: urls.collection(row.id),
    permissions: collectionPermissions(role),
  };
  if (row.description) collection.description = row.description;
  if (row.parent_id) collection.parent = row.parent_id;
  return collection;
}

import { spacePermissions } from '../../auth/content-policy.js';
import type { MemberRole } from '../../auth/roles.js';
import type { SpacesTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { Space, SpaceMergeRules } from './schemas.js';

export interface SpaceView {
  row: SpacesTable;
  role: MemberRole | null;
}

export function presentSpace({ row, role }: SpaceView, urls: Urls): Space {
  const space: Space = {
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji ?? '',
    visibility: row.visibility,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    editMode: row.edit_mode,
    mergeRules: JSON.parse(row.merge_rules) as SpaceMergeRules,
    urls: urls.space(row.id),
    organization: row.org_id,
    revision: row.revision_id,
    defaultLevel: row.default_level,
    comments: Number(row.comments),
    changeRequests: Number(row.change_requests),
    changeRequestsOpen: Number(row.change_requests_open),
    changeRequestsDraft: Number(row.change_requests_draft),
    permissions: spacePermissions(role, row.edit_mode === 'locked'),
  };
  if (row.deleted_at) space.deletedAt = row.deleted_at;
  if (row.parent_id) space.parent = row.parent_id;
  if (row.language) space.language = row.language as Space['language'];
  if (row.icon_url) space.urls.icon = row.icon_url;
  return space;
}

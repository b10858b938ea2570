import type {
  ChangeRequestContributorsTable,
  ChangeRequestReviewersTable,
  ChangeRequestReviewsTable,
  ChangeRequestsTable,
} from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import { presentUser, type UserRow } from '../users/present.js';
import type { ChangeRequest, RequestedReviewer, Review } from './schemas.js';

/** A change request with what its presentation needs from elsewhere. */
export interface ChangeRequestView {
  row: ChangeRequestsTable;
  createdBy: UserRow;
  mergedBy?: UserRow | undefined;
  /** The space's current revision, to tell whether the request is behind it. */
  spaceRevision: string;
}

export function presentChangeRequest(view: ChangeRequestView, urls: Urls): ChangeRequest {
  const { row } = view;
  const cr: ChangeRequest = {
    object: 'change-request',
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    createdBy: presentUser(view.createdBy, urls),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    space: row.space_id,
    revision: row.revision,
    revisionInitial: row.revision_initial,
    revisionMergedAncestor: row.revision_merged_ancestor,
    comments: Number(row.comments),
    outdated: row.status !== 'merged' && view.spaceRevision !== row.revision_merged_ancestor,
    urls: urls.changeRequest(row.space_id, row.id),
  };
  if (row.description) cr.description = JSON.parse(row.description) as Record<string, unknown>;
  if (view.mergedBy) cr.mergedBy = presentUser(view.mergedBy, urls);
  if (row.merged_at) cr.mergedAt = row.merged_at;
  if (row.revision_merged) cr.revisionMerged = row.revision_merged;
  if (row.conversations_cluster_id) cr.conversationsIssuesCluster = row.conversations_cluster_id;
  return cr;
}

export function presentRequestedReviewer(
  row: ChangeRequestReviewersTable,
  users: Map<string, UserRow>,
  urls: Urls,
): RequestedReviewer {
  return {
    object: 'change-request-requested-reviewer',
    revision: row.revision,
    requestedBy: presentUser(users.get(row.requested_by)!, urls),
    createdAt: row.created_at,
    kind: 'user',
    user: presentUser(users.get(row.user_id)!, urls),
  };
}

export function presentReview(
  row: ChangeRequestReviewsTable,
  reviewer: UserRow,
  currentRevision: string,
  spaceId: string,
  urls: Urls,
): Review {
  return {
    object: 'change-request-review',
    id: row.id,
    revision: row.revision,
    reviewer: presentUser(reviewer, urls),
    status: row.status,
    outdated: row.revision !== currentRevision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location: urls.api(`/spaces/${spaceId}/change-requests/${row.change_request_id}/reviews/${row.id}`),
    },
  };
}

export function presentContributor(row: ChangeRequestContributorsTable, user: UserRow, urls: Urls) {
  return {
    updatedAt: row.updated_at,
    count: Number(row.count),
    user: presentUser(user, urls),
    actionType: row.action_type,
  };
}

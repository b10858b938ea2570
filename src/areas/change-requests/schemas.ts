import { type Static, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { DocumentWire } from '../agent-instructions/schemas.js';
import { Team } from '../teams/schemas.js';
import { User } from '../users/schemas.js';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export const ChangeRequestStatus = Type.Enum([...CHANGE_REQUEST_STATUSES]);

export const ChangeRequest = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Number(),
  status: ChangeRequestStatus,
  subject: Type.String(),
  description: Type.Optional(DocumentWire),
  createdBy: User,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  mergedBy: Type.Optional(User),
  mergedAt: Type.Optional(Timestamp),
  space: Type.String(),
  revision: Type.String(),
  revisionInitial: Type.String(),
  revisionMergedAncestor: Type.Optional(Type.String()),
  revisionMerged: Type.Optional(Type.String()),
  comments: Type.Number(),
  outdated: Type.Boolean(),
  conversationsIssuesCluster: Type.Optional(Type.String()),
  urls: Type.Object({ app: Type.String({ format: 'uri' }), location: Type.String({ format: 'uri' }) }),
});
export type ChangeRequest = Static<typeof ChangeRequest>;

export const ChangeRequestParams = Type.Object({
  spaceId: Type.String({ minLength: 1, maxLength: 128 }),
  changeRequestId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const ReviewerParams = Type.Object({
  spaceId: Type.String({ minLength: 1, maxLength: 128 }),
  changeRequestId: Type.String({ minLength: 1, maxLength: 128 }),
  userId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const ReviewParams = Type.Object({
  spaceId: Type.String({ minLength: 1, maxLength: 128 }),
  changeRequestId: Type.String({ minLength: 1, maxLength: 128 }),
  reviewId: Type.String({ minLength: 1, maxLength: 128 }),
});

export const Subject = Type.String({ maxLength: 100 });

const ClusterId = Type.String({ minLength: 1, maxLength: 128 });

export const CreateChangeRequestBody = Type.Object({
  subject: Type.Optional(Subject),
  /** The conversations cluster the change request answers (0.146's field, taken on create). */
  conversationsIssuesCluster: Type.Optional(ClusterId),
});
export type CreateChangeRequestBody = Static<typeof CreateChangeRequestBody>;

export const UpdateChangeRequestBody = Type.Object({
  subject: Type.Optional(Subject),
  description: Type.Optional(DocumentWire),
  status: Type.Optional(Type.Enum(['draft', 'open', 'archived'])),
});
export type UpdateChangeRequestBody = Static<typeof UpdateChangeRequestBody>;

const ListFilters = {
  creator: Type.Optional(Type.String({ maxLength: 128 })),
  contributor: Type.Optional(Type.String({ maxLength: 128 })),
  requestedReviewer: Type.Optional(Type.String({ maxLength: 128 })),
  conversationsIssuesCluster: Type.Optional(ClusterId),
  orderBy: Type.Optional(Type.Enum(['updatedAt', 'createdAt'])),
};

export const ListSpaceChangeRequestsQuery = Type.Object({
  ...PageQuery,
  ...ListFilters,
  status: Type.Optional(ChangeRequestStatus),
});
export type ListSpaceChangeRequestsQuery = Static<typeof ListSpaceChangeRequestsQuery>;

export const ListOrgChangeRequestsQuery = Type.Object({
  ...PageQuery,
  ...ListFilters,
  status: Type.Optional(Type.Array(ChangeRequestStatus, { maxItems: 4 })),
  space: Type.Optional(Type.String({ maxLength: 128 })),
});
export type ListOrgChangeRequestsQuery = Static<typeof ListOrgChangeRequestsQuery>;

export const MergeResult = Type.Object({
  revision: Type.String(),
  result: Type.Enum(['merge', 'conflicts']),
  conflicts: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
});
export const UpdateResult = Type.Object({
  revision: Type.String(),
  result: Type.Enum(['update', 'conflicts']),
  conflicts: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
});

export const RequestedReviewer = Type.Union([
  Type.Object({
    object: Type.Literal('change-request-requested-reviewer'),
    revision: Type.String(),
    requestedBy: User,
    createdAt: Timestamp,
    kind: Type.Literal('user'),
    user: User,
  }),
  Type.Object({
    object: Type.Literal('change-request-requested-reviewer'),
    revision: Type.String(),
    requestedBy: User,
    createdAt: Timestamp,
    kind: Type.Literal('team'),
    team: Team,
  }),
]);
export type RequestedReviewer = Static<typeof RequestedReviewer>;

export const RequestReviewersBody = Type.Object({
  users: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 50 }),
  subject: Type.Optional(Subject),
  description: Type.Optional(DocumentWire),
});
export type RequestReviewersBody = Static<typeof RequestReviewersBody>;

export const Review = Type.Object({
  object: Type.Literal('change-request-review'),
  id: Type.String(),
  revision: Type.String(),
  reviewer: User,
  status: Type.Enum(['approved', 'changes-requested']),
  outdated: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type Review = Static<typeof Review>;

export const SubmitReviewBody = Type.Object({
  status: Type.Enum(['approved', 'changes-requested']),
  comment: Type.Optional(Type.Object({ markdown: Type.String({ maxLength: 65536 }) })),
});
export type SubmitReviewBody = Static<typeof SubmitReviewBody>;

export const Contributor = Type.Object({
  updatedAt: Timestamp,
  count: Type.Integer(),
  user: User,
  actionType: Type.Enum(['edit', 'comment']),
});

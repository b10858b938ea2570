import { type Static, Type } from 'typebox';
import { PageQuery } from '../../http/schemas.js';
import { Space } from '../spaces/schemas.js';

/** Wire objects and bodies of a site's structure: sections, section groups, site spaces. */

const Id = Type.String({ minLength: 1, maxLength: 128 });
export const SectionTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SectionPath = Type.String({ minLength: 1, maxLength: 100 });
export const SiteSpacePath = Type.String({ minLength: 1, maxLength: 100 });
export const Expression = Type.String({ maxLength: 1024 });
export const Icon = Type.String({ maxLength: 50 });
export const GroupTitle = Type.String({ minLength: 1, maxLength: 100 });
const PublishedUrls = Type.Object({ published: Type.Optional(Type.String({ format: 'uri' })) });

export const SiteSpace = Type.Object({
  object: Type.Literal('site-space'),
  id: Type.String(),
  path: Type.String(),
  section: Type.Optional(Type.String()),
  space: Space,
  title: Type.String(),
  default: Type.Boolean(),
  condition: Type.Optional(Type.String()),
  draft: Type.Boolean(),
  hidden: Type.Boolean(),
  hasAdvancedCustomizationFeature: Type.Boolean(),
  urls: PublishedUrls,
});
export type SiteSpace = Static<typeof SiteSpace>;

export const SiteSection = Type.Object({
  object: Type.Literal('site-section'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  default: Type.Boolean(),
  draft: Type.Boolean(),
  path: Type.String(),
  condition: Type.Optional(Type.String()),
  sectionGroup: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  siteSpaces: Type.Array(SiteSpace),
  urls: PublishedUrls,
});
export type SiteSection = Static<typeof SiteSection>;

/**
 * `children` nests sections and groups to any depth; its items are built by the presenter and
 * written as they are (a recursive schema would cost the serializer more than it checks).
 */
export const SiteSectionGroup = Type.Object({
  object: Type.Literal('site-section-group'),
  id: Type.String(),
  title: Type.String(),
  sectionGroup: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  draft: Type.Boolean(),
  sections: Type.Array(SiteSection),
  children: Type.Array(Type.Unknown()),
});
export type SiteSectionGroup = Static<typeof SiteSectionGroup>;
export type StructureChild = SiteSection | SiteSectionGroup;

export const SiteStructure = Type.Union([
  Type.Object({ type: Type.Literal('sections'), structure: Type.Array(Type.Unknown()) }),
  Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(SiteSpace) }),
]);
export type SiteStructure =
  | { type: 'sections'; structure: StructureChild[] }
  | { type: 'siteSpaces'; structure: SiteSpace[] };

export const StructureItem = Type.Union([SiteSpace, SiteSection, SiteSectionGroup]);

export const ListSiteSpacesQuery = Type.Object({
  ...PageQuery,
  shareKey: Type.Optional(Type.String({ maxLength: 256 })),
  default: Type.Optional(
    Type.Boolean({ description: 'true: only default site spaces; false: only the others' }),
  ),
});
export type ListSiteSpacesQuery = Static<typeof ListSiteSpacesQuery>;
export const ListSectionsQuery = Type.Object({
  ...PageQuery,
  shareKey: Type.Optional(Type.String({ maxLength: 256 })),
});
export const ListGroupsQuery = Type.Object(PageQuery);

export const AddSectionBody = Type.Object({
  spaceId: Id,
  title: Type.Optional(Type.Union([SectionTitle, Type.Null()])),
  icon: Type.Optional(Type.Union([Icon, Type.Null()])),
  siteSectionGroupId: Type.Optional(Id),
});
export type AddSectionBody = Static<typeof AddSectionBody>;

export const UpdateSectionBody = Type.Object({
  title: Type.Optional(SectionTitle),
  path: Type.Optional(SectionPath),
  defaultSiteSpace: Type.Optional(Id),
  condition: Type.Optional(Type.Union([Expression, Type.Null()])),
  icon: Type.Optional(Type.Union([Icon, Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
  siteSectionGroupId: Type.Optional(Type.Union([Id, Type.Null()])),
});
export type UpdateSectionBody = Static<typeof UpdateSectionBody>;

export const AddGroupBody = Type.Object({
  title: GroupTitle,
  icon: Type.Optional(Type.Union([Icon, Type.Null()])),
  sections: Type.Optional(Type.Array(Id, { maxItems: 100 })),
  parent: Type.Optional(Id),
});
export type AddGroupBody = Static<typeof AddGroupBody>;

export const UpdateGroupBody = Type.Object({
  title: Type.Optional(GroupTitle),
  icon: Type.Optional(Type.Union([Icon, Type.Null()])),
  parentSectionGroupId: Type.Optional(Type.Union([Id, Type.Null()])),
});
export type UpdateGroupBody = Static<typeof UpdateGroupBody>;

export const AddSectionToGroupBody = Type.Object({ sectionId: Id });

export const AddSiteSpaceBody = Type.Object({
  spaceId: Id,
  sectionId: Type.Optional(Id),
});
export type AddSiteSpaceBody = Static<typeof AddSiteSpaceBody>;

export const UpdateSiteSpaceBody = Type.Object({
  path: Type.Optional(SiteSpacePath),
  condition: Type.Optional(Type.Union([Expression, Type.Null()])),
  spaceId: Type.Optional(Id),
  hidden: Type.Optional(Type.Boolean({ description: 'Published, but left out of the navigation' })),
});
export type UpdateSiteSpaceBody = Static<typeof UpdateSiteSpaceBody>;

/** A pointer into the structure, as sortSiteStructure and the group move take it. */
export const ItemPointer = Type.Object({
  type: Type.Enum(['site-space', 'site-section', 'site-section-group', 'site-external-link']),
  id: Id,
});
export type ItemPointer = Static<typeof ItemPointer>;

const positionOf = <T extends ReturnType<typeof Type.Object>>(pointer: T) =>
  Type.Object({ before: Type.Optional(pointer), after: Type.Optional(pointer) });

export const SortStructureBody = Type.Object({ item: ItemPointer, position: positionOf(ItemPointer) });
export type SortStructureBody = Static<typeof SortStructureBody>;

export const MoveSectionBody = Type.Object({
  position: Type.Optional(positionOf(Type.Object({ type: Type.Literal('site-section'), siteSection: Id }))),
});
export type MoveSectionBody = Static<typeof MoveSectionBody>;

export const MoveGroupBody = Type.Object({
  position: Type.Optional(
    positionOf(Type.Object({ type: Type.Enum(['site-section', 'site-section-group']), id: Id })),
  ),
});
export type MoveGroupBody = Static<typeof MoveGroupBody>;

export const MoveSiteSpaceBody = Type.Object({
  position: Type.Optional(positionOf(Type.Object({ type: Type.Literal('site-space'), siteSpace: Id }))),
});
export type MoveSiteSpaceBody = Static<typeof MoveSiteSpaceBody>;

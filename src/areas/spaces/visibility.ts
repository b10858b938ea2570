import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { SpaceVisibility } from '../../auth/access-scope.js';
import type { Tables } from '../../db/tables.js';

/** Ids are never empty, so this matches nothing (an empty IN list is not valid SQL). */
const NONE = [''];

/**
 * The SQL form of AccessScope.spaceVisibility for a query over `spaces as s`: a space is listed
 * when its own grant, or its default-level class under its parent, makes it visible.
 */
export function visibleSpaces(
  v: SpaceVisibility,
): (eb: ExpressionBuilder<Tables & { s: Tables['spaces'] }, 's'>) => Expression<SqlBool> {
  return (eb) => {
    if (v.all) return sql<SqlBool>`1 = 1`;
    const inherit = eb('s.default_level', '=', 'inherit');
    const none = eb('s.default_level', 'is', null);
    const explicit = eb.and([eb('s.default_level', '!=', 'inherit'), eb('s.default_level', 'is not', null)]);
    const under = (parents: string[], root: boolean) =>
      eb.or([
        eb('s.parent_id', 'in', parents.length > 0 ? parents : NONE),
        ...(root ? [eb('s.parent_id', 'is', null)] : []),
      ]);
    return eb.or([
      eb('s.id', 'in', v.spaces.length > 0 ? v.spaces : NONE),
      eb.and([inherit, under(v.inherit, v.rootInherit)]),
      eb.and([explicit, under(v.explicit, v.rootExplicit)]),
      eb.and([none, under(v.none, v.rootNone)]),
    ]);
  };
}

import { invalidField } from '../../errors.js';
import { ConditionSyntaxError, parseCondition } from '../../publish/conditions.js';

/** Checks shared by the site commands: path segments, derived slugs, visitor conditions. */

export const MAX_PATH = 100;

/**
 * One URL path segment: letters (any script, with their combining marks), digits, "-", "_", "~"
 * and ".", not starting with "." or a mark.
 */
const SEGMENT = /^[\p{L}\p{N}_~-][\p{L}\p{M}\p{N}_.~-]*$/u;

export function checkPath(path: string, field: string): string {
  if (!SEGMENT.test(path)) {
    throw invalidField(
      field,
      'must be one URL path segment: letters, digits, "-", "_", "~" and "." (not first), no "/" or spaces',
    );
  }
  return path;
}

/** `base`, or `base-2`, `base-3`… whichever is not taken, within the length limit. */
export function uniquePath(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_PATH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A visitor condition as given (null removes it); a syntax error is a 400 naming the field. */
export function checkCondition(condition: string | null, field: string): string | null {
  if (condition === null || condition.trim() === '') return null;
  try {
    parseCondition(condition);
  } catch (error) {
    if (error instanceof ConditionSyntaxError)
      throw invalidField(field, `is not a valid condition: ${error.message}`);
    throw error;
  }
  return condition;
}

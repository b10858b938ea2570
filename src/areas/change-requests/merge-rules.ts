import type { ChangeRequestReviewsTable, ChangeRequestsTable } from '../../db/tables.js';
import type { MergeRules } from '../orgs/schemas.js';

export interface MergeRuleFacts {
  cr: ChangeRequestsTable;
  /** The latest review of each reviewer. */
  reviews: Map<string, ChangeRequestReviewsTable>;
  /** Main moved past the change request. */
  outdated: boolean;
  /** Who asks to merge. */
  actorId: string;
}

/**
 * The rules that stop a merge, in words a person can act on; empty when the merge may go.
 * Rules Quire cannot evaluate (agent reviews, custom expressions) are reported, not ignored.
 */
export function unmetMergeRules(rules: MergeRules, facts: MergeRuleFacts): string[] {
  if (rules.type !== 'rules') return [];
  const bypass = rules.rules.some(
    (r) => r.rule === 'allow_bypass' && 'users' in r && r.users.includes(facts.actorId),
  );
  if (bypass) return [];
  const approvedBy = (userId: string) => facts.reviews.get(userId)?.status === 'approved';
  const approvals = [...facts.reviews.values()].filter(
    (r) => r.status === 'approved' && r.reviewer_id !== facts.cr.created_by,
  );
  const unmet: string[] = [];
  for (const rule of rules.rules) {
    switch (rule.rule) {
      case 'require_specific_reviewers': {
        const missing = rule.users.filter((u) => !approvedBy(u));
        if (missing.length > 0)
          unmet.push(`approval by every required reviewer (missing: ${missing.join(', ')})`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!rule.users.some(approvedBy)) unmet.push(`approval by one of ${rule.users.join(', ')}`);
        break;
      case 'require_at_least_one_review':
        if (approvals.length === 0) unmet.push('at least one approving review');
        break;
      case 'require_all_reviews_approved': {
        const blocking = [...facts.reviews.values()].filter((r) => r.status === 'changes-requested');
        if (blocking.length > 0) unmet.push('every review approved (changes were requested)');
        break;
      }
      case 'require_up_to_date_change_request':
        if (facts.outdated) unmet.push('the change request up to date with the main content (use update)');
        break;
      case 'require_change_request_subject':
        if (!facts.cr.subject.trim()) unmet.push('a subject');
        break;
      case 'require_change_request_description':
        if (!facts.cr.description) unmet.push('a description');
        break;
      case 'require_agent_review':
        unmet.push('an agent review, which this server cannot provide (remove the rule to merge)');
        break;
      case 'custom':
        unmet.push(
          'a custom rule expression, which this server does not evaluate (remove the rule to merge)',
        );
        break;
      default:
        break;
    }
  }
  return unmet;
}

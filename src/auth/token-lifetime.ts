/** The lifetimes the tokens page offers, in days (the CLI takes any within the bounds). */
export const TOKEN_LIFETIME_CHOICES = [7, 30, 90, 365] as const;

const MAX_DAYS = 3650;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a new personal token lives, as the CLI (`--expires-in`) and the tokens page take it: a
 * whole number of days, or nothing for a token that never expires. Answers the days, or a
 * sentence saying what is wrong for the caller to show.
 */
export function parseTokenLifetime(value: unknown): { days: number | null } | { problem: string } {
  if (value === undefined || value === null || value === '' || value === 'never') return { days: null };
  const text = typeof value === 'string' ? value.trim() : String(value);
  const days = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(days >= 1 && days <= MAX_DAYS)) {
    return { problem: `must be a whole number of days from 1 to ${MAX_DAYS} (or never)` };
  }
  return { days };
}

/** The expiry of a token made `now` to live `days` (null: never). */
export function tokenExpiry(now: Date, days: number | null): string | null {
  return days === null ? null : new Date(now.getTime() + days * DAY_MS).toISOString();
}

/**
 * The headers two answers to the same request must agree on, whichever path answered it: all but
 * the request id, the date, and any of `also` (a count that moves between the two requests).
 */
export function comparableHeaders(headers: Headers, also: readonly string[] = []): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name !== 'x-request-id' && name !== 'date' && !also.includes(name)) kept[name] = value;
  });
  return kept;
}

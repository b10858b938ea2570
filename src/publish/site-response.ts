/** An answer of the published-site server, before it is written to the HTTP response. */
export interface SiteResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | Buffer;
}

/**
 * Where published sites live. Without a custom hostname a site is served under the public URL
 * at `/sites/{siteId}/`; with one, at the root of that host (same scheme as the public URL).
 * Below the root come the section path (absent for the default section), the site-space path
 * (absent for the default site space of its section) and the page path.
 */
export interface SiteAddress {
  id: string;
  hostname: string | null;
}

/** The path prefix of sites served under the public URL. */
export const SITES_PREFIX = '/sites';

export class SiteAddresses {
  constructor(private readonly publicUrl: string) {}

  /** The site's root URL, with a trailing slash. */
  root(site: SiteAddress): string {
    if (site.hostname) return `${new URL(this.publicUrl).protocol}//${site.hostname}/`;
    return `${this.publicUrl}${SITES_PREFIX}/${site.id}/`;
  }

  /** A URL inside the site: empty or missing segments are skipped, each one is URL-encoded per part. */
  at(site: SiteAddress, ...segments: Array<string | null | undefined>): string {
    const parts = segments
      .filter((s): s is string => typeof s === 'string' && s !== '')
      .flatMap((s) => s.split('/'))
      .filter((s) => s !== '')
      .map(encodeURIComponent);
    return this.root(site) + parts.join('/');
  }
}

/**
 * Addresses of space previews in the signed-in app, `/app/s/{spaceId}/…`: a preview is a site
 * whose id is its space's (see `previewSite`), drawn by the same renderer.
 */
export class PreviewAddresses extends SiteAddresses {
  constructor(private readonly base: string) {
    super(base);
  }

  override root(site: SiteAddress): string {
    return `${this.base}/app/s/${encodeURIComponent(site.id)}/`;
  }
}

import { createHash } from 'node:crypto';
import { SITE_JS, SITE_JS_HASH } from './client.js';
import { SITE_CSS, SITE_CSS_HASH } from './styles.js';

/**
 * The static files every published site serves under `SiteFrame.assetsHref`: the stylesheet
 * and the script, named by their content hash so a URL never changes meaning (serve them with
 * `Cache-Control: public, max-age=31536000, immutable`).
 */

export interface SiteAsset {
  contentType: string;
  body: string;
}

export const SITE_CSS_FILE = `site-${SITE_CSS_HASH}.css`;
export const SITE_JS_FILE = `site-${SITE_JS_HASH}.js`;

export const SITE_ASSETS: {
  /** Changes whenever any asset changes: part of page ETags (pages name the files). */
  version: string;
  files: ReadonlyMap<string, SiteAsset>;
} = {
  version: createHash('sha256').update(`${SITE_CSS_HASH}:${SITE_JS_HASH}`).digest('hex').slice(0, 16),
  files: new Map([
    [SITE_CSS_FILE, { contentType: 'text/css; charset=utf-8', body: SITE_CSS }],
    [SITE_JS_FILE, { contentType: 'text/javascript; charset=utf-8', body: SITE_JS }],
  ]),
};

/** The URL of an asset file under the site's assets base URL. */
export function assetUrl(assetsHref: string, file: string): string {
  return `${assetsHref.replace(/\/+$/, '')}/${file}`;
}

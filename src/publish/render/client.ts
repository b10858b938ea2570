import { SITE_ASSETS } from './assets.js';

/**
 * The site's only script, from `src/publish/assets/site.js` (see `assets.ts`): loaded from
 * its hashed URL, or inlined in pages that have no assets URL.
 */
export const SITE_JS = SITE_ASSETS.js;

/** First 16 hex digits of the script's sha256: put it in the URL for long caching. */
export const SITE_JS_HASH = SITE_ASSETS.jsHash;

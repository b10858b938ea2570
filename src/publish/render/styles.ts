import { SITE_ASSETS } from './assets.js';

/**
 * The site stylesheet, from the asset files in `src/publish/assets/` (see `assets.ts`): the
 * same for every site (what a site customizes comes as variables in a small inline `<style>`,
 * see `renderLookCss`), so it is served at a fixed URL with its hash in the name.
 */
export const SITE_CSS = SITE_ASSETS.css;

/** First 16 hex digits of the stylesheet's sha256: put it in the URL for long caching. */
export const SITE_CSS_HASH = SITE_ASSETS.cssHash;

export { DEFAULT_FONT, fontStack, isSafeColor, renderLookCss } from './look-css.js';

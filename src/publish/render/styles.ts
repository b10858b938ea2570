import { createHash } from 'node:crypto';
import { BLOCKS_CSS } from './css-blocks.js';
import { CONTENT_CSS } from './css-content.js';
import { BASE_CSS } from './css-layout.js';
import { THEME_CSS } from './theme-css.js';

/**
 * The site stylesheet: the same for every site (what a site customizes comes as variables in
 * a small inline `<style>`, see `renderLookCss`), so it can be served at a fixed URL with the
 * hash in its name and cached forever. It loads nothing from anywhere: no fonts, no images.
 */

/** Rules that show the dark-theme variant of an element (logos, the theme toggle's icon). */
function darkSwitches(scope: string): string {
  return (
    `${scope} .logo-light, ${scope} .theme-toggle .icon-moon { display: none; }\n` +
    `${scope} .logo-dark, ${scope} .theme-toggle .icon-sun { display: inline-block; }\n`
  );
}

const DARK_SWITCHES = `${darkSwitches(':root[data-theme="dark"]')}@media (prefers-color-scheme: dark) {\n${darkSwitches(':root:not([data-theme="light"])')}}\n`;

/**
 * Document images with a dark variant are two images, `.light-only` and `.dark-only`: each
 * rule hides the one of the theme not in force, chosen by the toggle or else by the system.
 */
const THEME_IMAGES =
  ':root[data-theme="dark"] .light-only, :root[data-theme="light"] .dark-only { display: none !important; }\n' +
  '@media (prefers-color-scheme: dark) {\n:root:not([data-theme]) .light-only { display: none !important; }\n}\n' +
  '@media not all and (prefers-color-scheme: dark) {\n:root:not([data-theme]) .dark-only { display: none !important; }\n}\n';

export const SITE_CSS = `${THEME_CSS}${BASE_CSS}${CONTENT_CSS}${BLOCKS_CSS}${DARK_SWITCHES}${THEME_IMAGES}`;

/** First 16 hex digits of the stylesheet's sha256: put it in the URL for long caching. */
export const SITE_CSS_HASH = createHash('sha256').update(SITE_CSS).digest('hex').slice(0, 16);

export { DEFAULT_FONT, fontStack, isSafeColor, renderLookCss } from './look-css.js';

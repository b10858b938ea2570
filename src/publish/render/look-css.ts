import type { ColorPair, SiteLook } from './model.js';

/**
 * The per-site part of the CSS: colours, corners and font from the site's customization,
 * as variables overriding the defaults of `SITE_CSS` (src/publish/assets/theme.css and
 * base.css). Nothing from the customization reaches the CSS unchecked: colours must be hex
 * colours, corners and fonts come from fixed lists.
 */

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export function isSafeColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

const SANS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif';
const SERIF = 'Georgia, Cambria, "Times New Roman", "Noto Serif", "Liberation Serif", serif';

/**
 * The customization's default fonts, as local font stacks: the site loads no font from
 * anywhere, so the named family is used when the visitor has it and the system font otherwise.
 */
const FONTS: Record<string, string> = {
  ABCFavorit: `"ABC Favorit", ${SANS}`,
  Inter: `Inter, "Inter var", ${SANS}`,
  Roboto: `Roboto, ${SANS}`,
  RobotoSlab: `"Roboto Slab", ${SERIF}`,
  OpenSans: `"Open Sans", ${SANS}`,
  SourceSansPro: `"Source Sans 3", "Source Sans Pro", ${SANS}`,
  Lato: `Lato, ${SANS}`,
  Ubuntu: `Ubuntu, ${SANS}`,
  Raleway: `Raleway, ${SANS}`,
  Merriweather: `Merriweather, ${SERIF}`,
  Overpass: `Overpass, ${SANS}`,
  NotoSans: `"Noto Sans", ${SANS}`,
  IBMPlexSerif: `"IBM Plex Serif", ${SERIF}`,
  Poppins: `Poppins, ${SANS}`,
  FiraSans: `"Fira Sans", ${SANS}`,
};

export const DEFAULT_FONT = SANS;

const CORNERS: Record<string, string> = {
  straight: '--radius: 0px; --radius-sm: 0px; --radius-pill: 0px;',
  rounded: '--radius: 10px; --radius-sm: 6px; --radius-pill: 10px;',
  circular: '--radius: 16px; --radius-sm: 10px; --radius-pill: 999px;',
};

/** The font stack for a customization font name; the system stack for anything unknown. */
export function fontStack(font: string | undefined): string {
  return font !== undefined && Object.hasOwn(FONTS, font) ? FONTS[font]! : SANS;
}

const COLOR_VARIABLES: Array<[keyof SiteLook, string]> = [
  ['primaryColor', '--primary'],
  ['tint', '--tint'],
  ['infoColor', '--info'],
  ['successColor', '--success'],
  ['warningColor', '--warning'],
  ['dangerColor', '--danger'],
];

/**
 * `rules` for the dark theme: chosen explicitly, or by the system when nothing was chosen (the
 * same selectors as the dark palette in `src/publish/assets/theme.css`).
 */
function darkThemed(rules: string): string {
  return `:root[data-theme="dark"] {${rules}\n}\n@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {${rules}\n  }\n}\n`;
}

/** The CSS for a site's look; empty declarations are left out. */
export function renderLookCss(look: SiteLook): string {
  const light: string[] = [];
  const dark: string[] = [];
  for (const [key, variable] of COLOR_VARIABLES) {
    const pair = look[key] as ColorPair | undefined;
    const lightColor = isSafeColor(pair?.light) ? pair.light : undefined;
    // A brand colour given for one theme only is used for both.
    const darkColor = isSafeColor(pair?.dark) ? pair.dark : lightColor;
    if (lightColor) light.push(`${variable}: ${lightColor};`);
    if (darkColor) dark.push(`${variable}: ${darkColor};`);
  }
  if (look.corners !== undefined && Object.hasOwn(CORNERS, look.corners)) light.push(CORNERS[look.corners]!);
  if (look.font !== undefined && Object.hasOwn(FONTS, look.font))
    light.push(`--font: ${fontStack(look.font)};`);
  let css = light.length > 0 ? `:root { ${light.join(' ')} }\n` : '';
  if (dark.length > 0) css += darkThemed(` ${dark.join(' ')}`);
  return css;
}

/**
 * Colour variables of the two themes. The light theme is the default; the dark one applies
 * when `<html data-theme="dark">`, or when no theme is set and the system prefers dark.
 * Surfaces and borders are mixed from `--tint` into the background, so a site tint colours
 * the whole chrome a little.
 */

const LIGHT = `
  color-scheme: light;
  --bg: #ffffff;
  --fg: #1b1f24;
  --fg-soft: #3b4350;
  --fg-muted: #5c6675;
  --tint: #6b7585;
  --primary: #2f6ee5;
  --on-primary: #ffffff;
  --info: #2f6ee5;
  --success: #1a7f37;
  --warning: #b35900;
  --danger: #cf222e;
  --c-green: #1a7f37;
  --c-blue: #0969da;
  --c-red: #cf222e;
  --c-orange: #bc4c00;
  --c-yellow: #9a6700;
  --c-purple: #8250df;
  --c-pink: #bf3989;
  --c-violet: #6639ba;
  --c-cyan: #1b7c83;
  --shadow: 0 1px 2px rgb(16 24 40 / 6%), 0 8px 24px rgb(16 24 40 / 10%);
  --hl-keyword: #cf222e;
  --hl-title: #8250df;
  --hl-attr: #0550ae;
  --hl-string: #0a3069;
  --hl-builtin: #953800;
  --hl-comment: #6e7781;
  --hl-name: #116329;
  --hl-add-fg: #116329;
  --hl-add-bg: #dafbe1;
  --hl-del-fg: #82071e;
  --hl-del-bg: #ffebe9;`;

const DARK = `
  color-scheme: dark;
  --bg: #0f1217;
  --fg: #e7eaef;
  --fg-soft: #c4cad3;
  --fg-muted: #99a3b1;
  --tint: #8d97a8;
  --primary: #6b9bff;
  --on-primary: #0b0d12;
  --info: #6b9bff;
  --success: #3fb950;
  --warning: #e3a03c;
  --danger: #f85149;
  --c-green: #3fb950;
  --c-blue: #58a6ff;
  --c-red: #f85149;
  --c-orange: #f0883e;
  --c-yellow: #d29922;
  --c-purple: #bc8cff;
  --c-pink: #ff80c8;
  --c-violet: #a371f7;
  --c-cyan: #56d4dd;
  --shadow: 0 1px 2px rgb(0 0 0 / 30%), 0 8px 24px rgb(0 0 0 / 45%);
  --hl-keyword: #ff7b72;
  --hl-title: #d2a8ff;
  --hl-attr: #79c0ff;
  --hl-string: #a5d6ff;
  --hl-builtin: #ffa657;
  --hl-comment: #8b949e;
  --hl-name: #7ee787;
  --hl-add-fg: #aff5b4;
  --hl-add-bg: #033a16;
  --hl-del-fg: #ffdcd7;
  --hl-del-bg: #67060c;`;

/** Variables derived from the palette, the same formulas in both themes. */
const DERIVED = `
  --surface: color-mix(in srgb, var(--tint) 5%, var(--bg));
  --surface-2: color-mix(in srgb, var(--tint) 10%, var(--bg));
  --border: color-mix(in srgb, var(--tint) 20%, var(--bg));
  --border-strong: color-mix(in srgb, var(--tint) 35%, var(--bg));
  --link: color-mix(in srgb, var(--primary) 82%, var(--fg));
  --primary-soft: color-mix(in srgb, var(--primary) 12%, var(--bg));
  --primary-strong: color-mix(in srgb, var(--primary) 75%, var(--fg));
  --code-bg: var(--surface);`;

/** `rules` for the dark theme: chosen explicitly, or by the system when nothing was chosen. */
export function darkThemed(rules: string): string {
  return `:root[data-theme="dark"] {${rules}\n}\n@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {${rules}\n  }\n}\n`;
}

export const THEME_CSS = `:root {${LIGHT}${DERIVED}\n}\n${darkThemed(DARK)}`;

import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.js';
import { LINK_URL } from '../../validation.js';
import { SiteTitle } from './schemas.js';
import { Expression } from './structure-schemas.js';

/**
 * Site customization (API.md 2.8). Every value accepted here is valid for both official
 * versions (0.146 and 0.202), so a stored customization always presents as both require:
 * where they differ the narrower one wins (theme mode light|dark, copyright up to 300
 * characters, content references without `tag`). Every key is optional: what is not set
 * presents as its default.
 */

/** http(s) only: these URLs end up in `<img>`/`<link>` tags of published pages. */
const WebUrl = Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://' });
const Color = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' });
const ThemedColor = Type.Object({ light: Color, dark: Color });
const ThemedUrl = Type.Object({ light: WebUrl, dark: WebUrl });

const FONTS = [
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
] as const;
const MONOSPACE_FONTS = [
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
] as const;
// biome-ignore format: one long list
const CODE_THEMES = ['default-light', 'default-dark', 'monochrome-light', 'monochrome-dark', 'andromeeda', 'aurora-x', 'ayu-dark', 'catppuccin-frappe', 'catppuccin-latte', 'catppuccin-macchiato', 'catppuccin-mocha', 'dark-plus', 'dracula', 'dracula-soft', 'everforest-dark', 'everforest-light', 'github-dark', 'github-dark-default', 'github-dark-dimmed', 'github-dark-high-contrast', 'github-light', 'github-light-default', 'github-light-high-contrast', 'gruvbox-dark-hard', 'gruvbox-dark-medium', 'gruvbox-dark-soft', 'gruvbox-light-hard', 'gruvbox-light-medium', 'gruvbox-light-soft', 'houston', 'kanagawa-dragon', 'kanagawa-lotus', 'kanagawa-wave', 'laserwave', 'light-plus', 'material-theme', 'material-theme-darker', 'material-theme-lighter', 'material-theme-ocean', 'material-theme-palenight', 'min-dark', 'min-light', 'monokai', 'night-owl', 'nord', 'one-dark-pro', 'one-light', 'plastic', 'poimandres', 'red', 'rose-pine', 'rose-pine-dawn', 'rose-pine-moon', 'slack-dark', 'slack-ochin', 'snazzy-light', 'solarized-dark', 'solarized-light', 'synthwave-84', 'tokyo-night', 'vesper', 'vitesse-black', 'vitesse-dark', 'vitesse-light'] as const;
const ThemedCodeTheme = Type.Object({
  light: Type.Enum([...CODE_THEMES]),
  dark: Type.Enum([...CODE_THEMES]),
});
const LOCALES = ['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'] as const;
const SOCIAL_PLATFORMS = [
  'twitter',
  'instagram',
  'facebook',
  'linkedin',
  'github',
  'discord',
  'slack',
  'youtube',
  'tiktok',
  'reddit',
  'bluesky',
  'mastodon',
  'threads',
  'medium',
] as const;
export const PAGE_ACTIONS = ['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'] as const;

const Ref = Type.String({ minLength: 1, maxLength: 256 });
/**
 * A link target. A URL is checked when it is written by the rule the published site applies
 * when it draws it (src/link-urls.ts): relative or http(s)/mailto, never another scheme
 * (`javascript:`, `data:`), however disguised (`java<TAB>script:`, `JAVASCRIPT:`, `&#106;…`).
 */
export const ContentRef = Type.Union([
  Type.Object({
    kind: Type.Literal('url'),
    url: Type.String({ minLength: 1, maxLength: 2048, [LINK_URL]: true }),
  }),
  Type.Object({ kind: Type.Literal('page'), page: Ref, space: Type.Optional(Ref) }),
  Type.Object({
    kind: Type.Literal('anchor'),
    anchor: Ref,
    space: Type.Optional(Ref),
    page: Type.Optional(Ref),
  }),
  Type.Object({ kind: Type.Literal('file'), file: Ref, space: Type.Optional(Ref) }),
  Type.Object({ kind: Type.Literal('space'), space: Ref }),
  Type.Object({ kind: Type.Literal('collection'), collection: Ref }),
  Type.Object({ kind: Type.Literal('user'), user: Ref }),
  Type.Object({ kind: Type.Literal('reusable-content'), reusableContent: Ref, space: Type.Optional(Ref) }),
  Type.Object({ kind: Type.Literal('openapi'), spec: Ref }),
]);
const ContentLink = Type.Object({ title: Type.String({ maxLength: 64 }), to: ContentRef });
const Toggle = Type.Object({ enabled: Type.Boolean() });

export const HeaderItem = Type.Object({
  title: Type.String({ maxLength: 128 }),
  style: Type.Optional(Type.Enum(['link', 'button-primary', 'button-secondary'])),
  to: Type.Union([ContentRef, Type.Null()]),
  links: Type.Array(ContentLink, { maxItems: 50 }),
  condition: Type.Optional(Expression),
});

export const Customization = Type.Object({
  title: Type.Optional(SiteTitle),
  styling: Type.Optional(
    Type.Object({
      theme: Type.Optional(Type.Enum(['clean', 'muted', 'bold', 'gradient'])),
      primaryColor: Type.Optional(ThemedColor),
      tint: Type.Optional(Type.Object({ color: ThemedColor })),
      infoColor: Type.Optional(ThemedColor),
      successColor: Type.Optional(ThemedColor),
      warningColor: Type.Optional(ThemedColor),
      dangerColor: Type.Optional(ThemedColor),
      corners: Type.Optional(Type.Enum(['straight', 'rounded', 'circular'])),
      depth: Type.Optional(Type.Enum(['subtle', 'flat'])),
      links: Type.Optional(Type.Enum(['default', 'accent'])),
      font: Type.Optional(Type.Enum([...FONTS])),
      headingFont: Type.Optional(Type.Union([Type.Enum([...FONTS]), Type.Null()])),
      monospaceFont: Type.Optional(Type.Enum([...MONOSPACE_FONTS])),
      background: Type.Optional(Type.Enum(['plain', 'match'])),
      icons: Type.Optional(Type.Enum(['regular', 'solid', 'duotone', 'light', 'thin'])),
      codeTheme: Type.Optional(
        Type.Object({ default: Type.Optional(ThemedCodeTheme), openapi: Type.Optional(ThemedCodeTheme) }),
      ),
      sidebar: Type.Optional(
        Type.Object({
          background: Type.Optional(Type.Enum(['default', 'filled'])),
          list: Type.Optional(Type.Enum(['default', 'pill', 'line'])),
        }),
      ),
      search: Type.Optional(Type.Enum(['prominent', 'subtle'])),
    }),
  ),
  internationalization: Type.Optional(Type.Object({ locale: Type.Enum([...LOCALES]) })),
  favicon: Type.Optional(
    Type.Union([
      Type.Object({ icon: ThemedUrl }),
      Type.Object({ emoji: Type.String({ minLength: 1, maxLength: 50 }) }),
      Type.Object({}, { additionalProperties: false }),
    ]),
  ),
  header: Type.Optional(
    Type.Object({
      preset: Type.Optional(Type.Enum(['default', 'bold', 'contrast', 'custom', 'none'])),
      logo: Type.Optional(ThemedUrl),
      backgroundColor: Type.Optional(ThemedColor),
      linkColor: Type.Optional(ThemedColor),
      links: Type.Optional(Type.Array(HeaderItem, { maxItems: 50 })),
    }),
  ),
  footer: Type.Optional(
    Type.Object({
      logo: Type.Optional(ThemedUrl),
      groups: Type.Optional(
        Type.Array(
          Type.Object({
            title: Type.String({ maxLength: 128 }),
            links: Type.Array(ContentLink, { maxItems: 50 }),
          }),
          { maxItems: 20 },
        ),
      ),
      copyright: Type.Optional(Type.String({ maxLength: 300 })),
    }),
  ),
  announcement: Type.Optional(
    Type.Object({
      enabled: Type.Boolean(),
      message: Type.String({ minLength: 2, maxLength: 128 }),
      link: Type.Optional(ContentLink),
      style: Type.Enum(['info', 'warning', 'danger', 'success']),
    }),
  ),
  themes: Type.Optional(
    Type.Object({
      default: Type.Optional(Type.Enum(['light', 'dark'])),
      toggeable: Type.Optional(Type.Boolean()),
    }),
  ),
  pdf: Type.Optional(Toggle),
  feedback: Type.Optional(Toggle),
  ai: Type.Optional(
    Type.Object({
      mode: Type.Enum(['none', 'search', 'assistant']),
      greeting: Type.Optional(Type.String({ maxLength: 256 })),
      suggestions: Type.Optional(Type.Array(Type.String({ minLength: 3, maxLength: 64 }), { maxItems: 5 })),
      instructions: Type.Optional(Type.String({ maxLength: 10000 })),
    }),
  ),
  advancedCustomization: Type.Optional(Toggle),
  git: Type.Optional(Type.Object({ showEditLink: Type.Boolean() })),
  pageActions: Type.Optional(
    Type.Object({
      externalAI: Type.Optional(Type.Boolean()),
      markdown: Type.Optional(Type.Boolean()),
      mcp: Type.Optional(Type.Boolean()),
      items: Type.Optional(Type.Array(Type.Enum([...PAGE_ACTIONS]), { maxItems: PAGE_ACTIONS.length })),
    }),
  ),
  externalLinks: Type.Optional(Type.Object({ target: Type.Enum(['self', 'blank']) })),
  pagination: Type.Optional(Toggle),
  trademark: Type.Optional(Toggle),
  privacyPolicy: Type.Optional(Type.Object({ url: Type.Optional(WebUrl) })),
  socialPreview: Type.Optional(Type.Object({ url: Type.Optional(WebUrl) })),
  socialAccounts: Type.Optional(
    Type.Array(
      Type.Object({
        platform: Type.Enum([...SOCIAL_PLATFORMS]),
        handle: Type.String({ minLength: 1, maxLength: 128 }),
        display: Type.Object({ footer: Type.Boolean(), header: Type.Boolean() }),
      }),
      { maxItems: 10 },
    ),
  ),
  insights: Type.Optional(Type.Object({ trackingCookie: Type.Boolean() })),
});
export type Customization = Static<typeof Customization>;

/** What GET and PUT answer: every key, defaults filled in, and when it was last changed. */
export const CustomizationSettings = Type.Object({
  ...Customization.properties,
  updatedAt: Type.Optional(Timestamp),
});
export type CustomizationSettings = Customization & { updatedAt?: string };

export const CustomizationQuery = Type.Object({ unmasked: Type.Optional(Type.Boolean()) });

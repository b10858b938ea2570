import { Value } from 'typebox/value';
import type { Actor } from '../../auth/actor.js';
import type { Deps } from '../../deps.js';
import type { SiteAccessor } from './access.js';
import { type Customization, CustomizationSettings, PAGE_ACTIONS } from './customization-schemas.js';
import { checkCondition } from './rules.js';

type Json = Record<string, unknown>;

/**
 * What an unset key presents as. Every value is valid for both official versions, which
 * between them require every top-level key below.
 */
const DEFAULTS = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#02A746', dark: '#02A746' },
    warningColor: { light: '#F59E0B', dark: '#F59E0B' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    sidebar: { background: 'default', list: 'default' },
    search: 'prominent',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: false },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: true },
  git: { showEditLink: false },
  pageActions: {},
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: false },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};

/** The three page actions 0.146 names as booleans, and their 0.202 item names. */
const FLAG_ITEMS = [
  ['externalAI', 'external-ai'],
  ['markdown', 'markdown'],
  ['mcp', 'mcp'],
] as const;
const DEFAULT_FLAGS = { externalAI: true, markdown: true, mcp: false };

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Objects merge key by key; anything else set replaces the default. */
function merge(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over === undefined ? base : over;
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

/** Page actions in both forms, kept in agreement: `items` when given, else the booleans. */
function pageActions(given: unknown): Json {
  const set = isObject(given) ? given : {};
  if (Array.isArray(set.items)) {
    const items = set.items as string[];
    return { ...Object.fromEntries(FLAG_ITEMS.map(([flag, item]) => [flag, items.includes(item)])), items };
  }
  const flags = Object.fromEntries(
    FLAG_ITEMS.map(([flag]) => [flag, typeof set[flag] === 'boolean' ? set[flag] : DEFAULT_FLAGS[flag]]),
  ) as Record<(typeof FLAG_ITEMS)[number][0], boolean>;
  const items = FLAG_ITEMS.filter(([flag]) => flags[flag]).map(([, item]) => item);
  return { ...flags, items: PAGE_ACTIONS.filter((a) => (items as string[]).includes(a)) };
}

/**
 * The customization as GET answers it: stored settings over the defaults (a site space's
 * override replaces whole top-level keys of the site's, as the renderer applies it).
 */
export function presentCustomization(
  stored: string,
  updatedAt: string | null,
  override: string | null = null,
): Json {
  const settings = { ...(JSON.parse(stored) as Json), ...(override ? (JSON.parse(override) as Json) : {}) };
  const out = merge(DEFAULTS, settings) as Json;
  out.pageActions = pageActions(settings.pageActions);
  if (updatedAt) out.updatedAt = updatedAt;
  return out;
}

/** Site customization: read by members, replaced as a whole by managers. */
export class CustomizationService {
  constructor(
    private readonly deps: Deps,
    private readonly access: SiteAccessor,
  ) {}

  async get(actor: Actor, orgId: string, siteId: string): Promise<Json> {
    const { site } = await this.access.site(actor, orgId, siteId, 'view');
    return presentCustomization(site.customization, site.customization_updated_at);
  }

  /** Replaces the settings: keys left out present as their defaults. */
  async update(actor: Actor, orgId: string, siteId: string, body: Customization): Promise<Json> {
    for (const [i, link] of (body.header?.links ?? []).entries())
      if (link.condition !== undefined) checkCondition(link.condition, `body.header.links.${i}.condition`);
    // Keys neither version knows (or only `updatedAt`, which the server sets) are not kept.
    const settings = Value.Clean(CustomizationSettings, structuredClone(body)) as Json;
    delete settings.updatedAt;
    const now = this.deps.clock.now().toISOString();
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      await tx
        .updateTable('sites')
        .set({ customization: JSON.stringify(settings), customization_updated_at: now })
        .where('id', '=', site.id)
        .execute();
    });
    return presentCustomization(JSON.stringify(settings), now);
  }
}

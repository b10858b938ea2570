import type { ContentRef } from '../content/document-schema.js';
import type { ColorPair, SiteLook } from './render/model.js';

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function pair(value: unknown): ColorPair | undefined {
  if (typeof value === 'string') return { light: value, dark: value };
  const o = obj(value);
  const light = str(o.light);
  const dark = str(o.dark);
  return light || dark ? { light, dark } : undefined;
}

/**
 * The site's customization with a site space's override on top: the override replaces whole
 * top-level keys, as GitBook's per-space customization does.
 */
export function mergedCustomization(site: string, override: string | null): Json {
  const base = obj(JSON.parse(site));
  return override ? { ...base, ...obj(JSON.parse(override)) } : base;
}

/** Customization settings (API.md 2.8) reduced to what the renderer draws. */
export function lookOf(customization: Json, hrefOf: (ref: ContentRef) => string | undefined): SiteLook {
  const styling = obj(customization.styling);
  const themes = obj(customization.themes);
  const header = obj(customization.header);
  const footer = obj(customization.footer);
  const announcement = obj(customization.announcement);
  const link = (value: unknown) => {
    const o = obj(value);
    const title = str(o.title);
    const href = o.to ? hrefOf(o.to as ContentRef) : undefined;
    return title && href ? { title, href } : undefined;
  };
  const themeDefault = str(themes.default);
  const corners = str(styling.corners);
  const look: SiteLook = {
    primaryColor: pair(styling.primaryColor),
    tint: pair(obj(styling.tint).color),
    infoColor: pair(styling.infoColor),
    successColor: pair(styling.successColor),
    warningColor: pair(styling.warningColor),
    dangerColor: pair(styling.dangerColor),
    corners: corners === 'straight' || corners === 'rounded' || corners === 'circular' ? corners : undefined,
    font: typeof styling.font === 'string' ? styling.font : undefined,
    theme: {
      default: themeDefault === 'light' || themeDefault === 'dark' ? themeDefault : 'system',
      toggleable: themes.toggeable !== false,
    },
    logo: pair(header.logo),
    favicon: pair(obj(customization.favicon).icon),
    headerLinks: arr(header.links).flatMap((value) => {
      const o = obj(value);
      const title = str(o.title);
      if (!title) return [];
      const links = arr(o.links).flatMap((l) => link(l) ?? []);
      const href = o.to ? hrefOf(o.to as ContentRef) : undefined;
      return href || links.length > 0 ? [{ title, href, links }] : [];
    }),
    pagination: obj(customization.pagination).enabled !== false,
  };
  const groups = arr(footer.groups).flatMap((value) => {
    const o = obj(value);
    const title = str(o.title);
    return title ? [{ title, links: arr(o.links).flatMap((l) => link(l) ?? []) }] : [];
  });
  const copyright = str(footer.copyright);
  if (groups.length > 0 || copyright) look.footer = { groups, copyright };
  const message = str(announcement.message);
  if (announcement.enabled === true && message) {
    const style = str(announcement.style);
    look.announcement = {
      message,
      style: style === 'warning' || style === 'danger' || style === 'success' ? style : 'info',
      link: link(announcement.link),
    };
  }
  return look;
}

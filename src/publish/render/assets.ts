import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The static files every published site serves under `SiteFrame.assetsHref`: the stylesheet
 * and the script, named by their content hash so a URL never changes meaning (serve them with
 * `Cache-Control: public, max-age=31536000, immutable`).
 *
 * Their sources are asset files in `src/publish/assets/` (`site.css`, which imports the other
 * stylesheets in cascade order, and `site.js`). `npm run build` (scripts/build-assets.mjs)
 * minifies them into `dist/publish/assets/` with a `manifest.json`; the server run from there
 * serves the minified files. Run from source (tsx, vitest) there is no manifest, and the server
 * reads the sources themselves, putting the imported stylesheets in place. Either way the
 * files are read once, at start-up.
 */

export interface SiteAsset {
  contentType: string;
  body: string;
}

/** What `npm run build` writes next to the minified files: source name -> built file name. */
export const ASSET_MANIFEST = 'manifest.json';

export interface SiteAssetSet {
  css: string;
  js: string;
  /** First 16 hex digits of the file's sha256: it is in the file's name, for long caching. */
  cssHash: string;
  jsHash: string;
  cssFile: string;
  jsFile: string;
  /** Changes whenever any asset changes: part of page ETags (pages name the files). */
  version: string;
  files: ReadonlyMap<string, SiteAsset>;
}

export function contentHash(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 16);
}

/** The site assets of a directory: built ones when it holds a manifest, else the sources. */
export function loadSiteAssets(dir: URL): SiteAssetSet {
  const manifestUrl = new URL(ASSET_MANIFEST, dir);
  const { css, js } = existsSync(manifestUrl) ? readBuilt(dir, manifestUrl) : readSources(dir);
  const cssHash = contentHash(css);
  const jsHash = contentHash(js);
  const cssFile = `site-${cssHash}.css`;
  const jsFile = `site-${jsHash}.js`;
  return {
    css,
    js,
    cssHash,
    jsHash,
    cssFile,
    jsFile,
    version: contentHash(`${cssHash}:${jsHash}`),
    files: new Map([
      [cssFile, { contentType: 'text/css; charset=utf-8', body: css }],
      [jsFile, { contentType: 'text/javascript; charset=utf-8', body: js }],
    ]),
  };
}

function readBuilt(dir: URL, manifestUrl: URL): { css: string; js: string } {
  const manifest = JSON.parse(readFileSync(manifestUrl, 'utf8')) as Record<string, unknown>;
  const read = (source: string): string => {
    const built = manifest[source];
    if (typeof built !== 'string' || !/^[\w.-]+$/.test(built)) {
      throw new Error(`${fileURLToPath(manifestUrl)} names no file for ${source}: run npm run build`);
    }
    return readFileSync(new URL(built, dir), 'utf8');
  };
  return { css: read('site.css'), js: read('site.js') };
}

/** A line of `site.css` that imports a stylesheet of the same directory. */
const LOCAL_IMPORT = /^@import "\.\/([\w-]+\.css)";$/;

function readSources(dir: URL): { css: string; js: string } {
  const entry = new URL('site.css', dir);
  if (!existsSync(entry)) {
    throw new Error(
      `The published site's assets are not in ${fileURLToPath(dir)}: neither ${ASSET_MANIFEST} (run npm run build) nor site.css`,
    );
  }
  const css = readFileSync(entry, 'utf8')
    .split('\n')
    .map((line) => {
      const file = LOCAL_IMPORT.exec(line.trim())?.[1];
      if (file) return readFileSync(new URL(file, dir), 'utf8');
      if (line.trimStart().startsWith('@import')) {
        throw new Error(`site.css: only local imports like @import "./file.css"; are read: ${line}`);
      }
      return line;
    })
    .join('\n');
  return { css, js: readFileSync(new URL('site.js', dir), 'utf8') };
}

export const SITE_ASSETS: SiteAssetSet = loadSiteAssets(new URL('../assets/', import.meta.url));

export const SITE_CSS_FILE = SITE_ASSETS.cssFile;
export const SITE_JS_FILE = SITE_ASSETS.jsFile;

/** The URL of an asset file under the site's assets base URL. */
export function assetUrl(assetsHref: string, file: string): string {
  return `${assetsHref.replace(/\/+$/, '')}/${file}`;
}

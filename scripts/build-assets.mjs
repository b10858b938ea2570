#!/usr/bin/env node
/**
 * Builds the published site's static assets (run by `npm run build`, before tsc, so the assets
 * are there even when tsc reports a type error but writes its output): minifies
 * src/publish/assets/site.css (with the stylesheets it imports put in place) and
 * src/publish/assets/site.js with esbuild, and writes them to dist/publish/assets/ (or the
 * directory given as the first argument) named by content hash, with a manifest.json mapping
 * each source to its file. The server run from dist/ reads that manifest at start-up
 * (src/publish/render/assets.ts); run from source it reads the sources themselves.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const SOURCE_DIR = fileURLToPath(new URL('../src/publish/assets/', import.meta.url));
const DEFAULT_OUT_DIR = fileURLToPath(new URL('../dist/publish/assets/', import.meta.url));

/** The same name as the server gives: the first 16 hex digits of the content's sha256. */
function hashedName(source, body) {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return source.replace(/\.(\w+)$/, `-${hash}.$1`);
}

function failOnWarnings(what, warnings) {
  if (warnings.length === 0) return;
  const messages = warnings.map((w) => `${w.location?.file ?? what}:${w.location?.line ?? ''} ${w.text}`);
  throw new Error(`esbuild warned about ${what}:\n${messages.join('\n')}`);
}

async function minifyCss() {
  const result = await build({
    entryPoints: [`${SOURCE_DIR}site.css`],
    bundle: true,
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  failOnWarnings('site.css', result.warnings);
  return result.outputFiles[0].text;
}

async function minifyJs() {
  const source = readFileSync(`${SOURCE_DIR}site.js`, 'utf8');
  const result = await transform(source, {
    loader: 'js',
    minify: true,
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    sourcefile: 'site.js',
  });
  failOnWarnings('site.js', result.warnings);
  return result.code;
}

async function main() {
  const outDir = process.argv[2] ?? DEFAULT_OUT_DIR;
  const built = { 'site.css': await minifyCss(), 'site.js': await minifyJs() };
  mkdirSync(outDir, { recursive: true });
  // Files of earlier builds go, so they do not pile up.
  for (const file of readdirSync(outDir)) {
    if (/^site-[0-9a-f]{16}\.(css|js)$|^manifest\.json$/.test(file)) rmSync(`${outDir}/${file}`);
  }
  const manifest = {};
  for (const [source, body] of Object.entries(built)) {
    manifest[source] = hashedName(source, body);
    writeFileSync(`${outDir}/${manifest[source]}`, body);
  }
  writeFileSync(`${outDir}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  const sizes = Object.entries(built).map(([source, body]) => `${manifest[source]} (${body.length} bytes)`);
  console.log(`site assets in ${outDir}: ${sizes.join(', ')}`);
}

await main();

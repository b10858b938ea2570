import { parse, stringify } from 'yaml';
import { normalizeRelative, SummaryError } from './summary.js';

/**
 * `.gitbook.yaml`: where the content lives in the project directory (`root`), the names of the
 * first page and of the table of contents (`structure.readme`, `structure.summary`), and
 * `redirects` (old path -> page file).
 */
export interface GitbookConfig {
  /** Relative to the project directory; '' for the directory itself. */
  root: string;
  readme: string;
  summary: string;
  redirects: Record<string, string>;
}

/** Where GitBook keeps uploaded files, under the content root. */
export const ASSETS_DIR = '.gitbook/assets';

export const DEFAULT_CONFIG: GitbookConfig = {
  root: '',
  readme: 'README.md',
  summary: 'SUMMARY.md',
  redirects: {},
};

export class GitbookConfigError extends Error {}

function relative(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new GitbookConfigError(`.gitbook.yaml: "${field}" must be a path`);
  try {
    return normalizeRelative(value.trim().replace(/^\/+/, ''), 0);
  } catch (error) {
    if (error instanceof SummaryError)
      throw new GitbookConfigError(`.gitbook.yaml: "${field}" (${value}) escapes the project directory`);
    throw error;
  }
}

export function parseGitbookConfig(text: string): GitbookConfig {
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = parse(text, { uniqueKeys: false }) ?? {};
    if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('it is not a mapping of keys');
    data = parsed as Record<string, unknown>;
  } catch (error) {
    throw new GitbookConfigError(`.gitbook.yaml is not valid: ${(error as Error).message.split('\n')[0]}`);
  }
  const config: GitbookConfig = { ...DEFAULT_CONFIG, redirects: {} };
  if (data.root !== undefined && data.root !== null) {
    const root = String(data.root).trim();
    config.root = root === '' || root === './' || root === '.' ? '' : relative(root, 'root');
  }
  const structure = data.structure as Record<string, unknown> | null | undefined;
  if (structure && typeof structure === 'object') {
    if (structure.readme != null) config.readme = relative(structure.readme, 'structure.readme');
    if (structure.summary != null) config.summary = relative(structure.summary, 'structure.summary');
  }
  const redirects = data.redirects as Record<string, unknown> | null | undefined;
  if (redirects && typeof redirects === 'object') {
    for (const [from, to] of Object.entries(redirects)) {
      if (typeof to === 'string') config.redirects[from] = relative(to, `redirects.${from}`);
    }
  }
  return config;
}

export function writeGitbookConfig(config: GitbookConfig): string {
  const data = {
    root: config.root === '' ? './' : `./${config.root}/`,
    structure: { readme: config.readme, summary: config.summary },
  };
  let text = stringify(data, { lineWidth: 0 });
  if (Object.keys(config.redirects).length > 0)
    text += `\n${stringify({ redirects: config.redirects }, { lineWidth: 0 })}`;
  return text;
}

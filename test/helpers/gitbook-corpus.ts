import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestUser } from './factories.js';
import type { GitServer } from './git-server.js';
import type { TestServer } from './server.js';

/** The GitBook-format repositories under test/fixtures/gitbook (see its README). */
export const CORPUS = path.resolve('test/fixtures/gitbook');
export const REPOSITORIES = ['handbook', 'developers', 'changelog'] as const;
export type Repository = (typeof REPOSITORIES)[number];

/** Every file of a fixture repository, by path in it, as bytes. */
export function corpusFiles(repository: Repository): Map<string, Buffer> {
  const root = path.join(CORPUS, repository);
  const files = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path.relative(root, full).split(path.sep).join('/'), readFileSync(full));
    }
  };
  walk(root);
  return files;
}

export interface ImportedSpace {
  spaceId: string;
  warnings: string[];
  files: Map<string, Buffer>;
}

/** Commits a fixture repository to the git server and imports it into a new space. */
export async function importCorpus(
  server: TestServer,
  git: GitServer,
  owner: TestUser,
  orgId: string,
  repository: Repository,
): Promise<ImportedSpace> {
  const files = corpusFiles(repository);
  const repo = `corpus-${repository}-${Math.random().toString(36).slice(2, 8)}`;
  git.createRepo(repo);
  git.commit(repo, 'main', Object.fromEntries(files), `Import ${repository}`);
  const spaceId = (await owner.api.orgs.createSpace(orgId, { title: repository })).data.id;
  await owner.api.spaces.importGitRepository(spaceId, { url: git.repoUrl(repo), ref: 'refs/heads/main' });
  await server.app.quire.services.jobs.runDue();
  const info = (await owner.api.spaces.getSpaceGitInfo(spaceId)).data as {
    operation?: { state: string; error?: string; warnings?: string[] };
  };
  if (info.operation?.state !== 'success')
    throw new Error(`importing ${repository} failed: ${info.operation?.error ?? JSON.stringify(info)}`);
  return { spaceId, warnings: info.operation.warnings ?? [], files };
}

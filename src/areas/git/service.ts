import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { GitSyncsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { ApiError, invalidField, notFound } from '../../errors.js';
import { GitCache } from '../../git/cache.js';
import { CredentialSealer, splitCredentials } from '../../git/credentials.js';
import { PageFileMemo } from '../../git/page-files.js';
import { GitError } from '../../git/runner.js';
import { OutboundError } from '../../http/outbound.js';
import { type JobContext, JobLeaseLost, type JobQueue } from '../../jobs/queue.js';
import type { ExportGitBody, ImportGitBody } from './schemas.js';
import type { SyncContext, SyncJob, SyncNeeds } from './sync.js';
import { runExport } from './sync-export.js';
import { GIT_TIMEOUT_MS, runImport, SyncFailure } from './sync-import.js';

export type { SyncJob } from './sync.js';

/** The services git sync calls: those of its jobs, and the queue and permission checks. */
export interface GitNeeds extends SyncNeeds {
  authz: Pick<Authorizer, 'space'>;
  jobs: Pick<JobQueue, 'register' | 'enqueue' | 'isLive'>;
  /** Told when a sync starts and ends (integration events). */
  syncEvents: {
    started(spaceId: string, revisionId: string, commitId: string): Promise<void>;
    completed(
      spaceId: string,
      revisionId: string,
      commitId: string,
      state: 'success' | 'failure',
    ): Promise<void>;
  };
}

export const GIT_JOB = 'git.sync';
const BUSY_RETRY_MS = 2000;
const REF = /^refs\/heads\/(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[^\s~^:?*[\\]+(?<![/.])$/;

/**
 * Git sync of a space: requests are checked and queued (one background job each; the API
 * answers at once); the job runs under a per-space lease so one sync runs per space at a time,
 * and its outcome is recorded on the space's sync row, shown by GET git/info. The space's lease
 * names the job holding it and lasts while that job is live in the queue: a sync whose server
 * died is taken over by the next one at once, and fails with a message saying so (onLost).
 */
export class GitService {
  readonly sealer: CredentialSealer;
  /** Repositories kept between syncs, so a re-sync fetches and reads what changed. */
  readonly cache: GitCache;
  /** Page files read by earlier syncs, by blob: a re-sync parses the pages that changed. */
  readonly pageFiles = new PageFileMemo(16 * 1024 * 1024);

  /** What the sync jobs work with. */
  private readonly sync: SyncContext;

  constructor(
    private readonly deps: Deps,
    private readonly services: GitNeeds,
  ) {
    this.sealer = new CredentialSealer(deps.config.dataDir);
    this.cache = new GitCache(deps.config.dataDir, GIT_TIMEOUT_MS, deps.log);
    this.sync = { ...services, git: this };
  }

  /** At start-up: caches unused for long removed (in the background). */
  started(): void {
    this.cache.sweepSoon();
  }

  registerJobs(): void {
    this.services.jobs.register(GIT_JOB, (payload, context) => this.runJob(payload as SyncJob, context), {
      maxAttempts: 1,
      onLost: (payload, context) => this.lost(payload as SyncJob, context),
    });
  }

  async requestImport(actor: Actor, spaceId: string, body: ImportGitBody): Promise<void> {
    await this.request(actor, spaceId, 'import', body);
  }

  async requestExport(actor: Actor, spaceId: string, body: ExportGitBody): Promise<void> {
    await this.request(actor, spaceId, 'export', body);
  }

  async info(actor: Actor, spaceId: string): Promise<GitSyncsTable> {
    await this.services.authz.space(actor, spaceId, 'view');
    const row = await this.row(spaceId);
    if (!row)
      throw notFound(
        `Space "${spaceId}" has no git sync set up; start one with POST git/import or git/export`,
      );
    return row;
  }

  async removeInstallation(actor: Actor, spaceId: string): Promise<void> {
    await this.services.authz.space(actor, spaceId, 'admin');
    await this.deps.db.deleteFrom('git_syncs').where('space_id', '=', spaceId).execute();
  }

  private row(spaceId: string): Promise<GitSyncsTable | undefined> {
    return this.deps.db
      .selectFrom('git_syncs')
      .selectAll()
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
  }

  private async request(
    actor: Actor,
    spaceId: string,
    direction: 'import' | 'export',
    body: ImportGitBody | ExportGitBody,
  ): Promise<void> {
    await this.services.authz.space(actor, spaceId, 'edit');
    let split: ReturnType<typeof splitCredentials>;
    try {
      split = splitCredentials(body.url);
    } catch {
      throw invalidField('body.url', 'is not an absolute URL; use the http(s) URL of the repository');
    }
    if (!/^https?:$/.test(new URL(split.url).protocol))
      throw invalidField(
        'body.url',
        'must be an http:// or https:// URL (ssh and other transports are not supported)',
      );
    try {
      await this.services.outbound.check(split.url);
    } catch (error) {
      if (error instanceof OutboundError) throw invalidField('body.url', error.message);
      throw error;
    }
    if (!REF.test(body.ref) || [...body.ref].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))
      throw invalidField('body.ref', `must name a branch as "refs/heads/<branch>", got "${body.ref}"`);
    const projectDir = projectDirectory(body.repoProjectDirectory);
    for (const field of ['repoTreeURL', 'repoCommitURL'] as const) {
      const value = body[field];
      if (value !== undefined && !/^https?:\/\/[^\s]+$/.test(value))
        throw invalidField(`body.${field}`, 'must be an http(s) URL');
    }

    const now = this.deps.clock.now().toISOString();
    const job: SyncJob = {
      spaceId,
      direction,
      url: split.url,
      ...(split.credentials ? { sealed: this.sealer.seal(split.credentials) } : {}),
      ref: body.ref,
      projectDir,
      ...(body.repoTreeURL ? { treeUrl: body.repoTreeURL } : {}),
      ...(body.repoCommitURL ? { commitUrl: body.repoCommitURL } : {}),
      ...(body.timestamp ? { timestamp: new Date(body.timestamp).toISOString() } : {}),
      force: body.force === true,
      standalone: body.standalone === true,
      ...('commitMessage' in body ? { commitMessage: body.commitMessage } : {}),
      actorId: actor.userId,
    };
    const provider =
      body.gitInfo?.provider ?? (/gitlab/i.test(new URL(split.url).hostname) ? 'gitlab' : 'github');
    await this.deps.db.transaction().execute(async (tx) => {
      const existing = await tx
        .selectFrom('git_syncs')
        .select('space_id')
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      const settings = {
        provider,
        url: split.url,
        ref: body.ref,
        project_directory: projectDir,
        tree_url: body.repoTreeURL ?? body.gitInfo?.url ?? null,
        commit_url: body.repoCommitURL ?? null,
        op_state: 'running',
        op_direction: direction,
        op_started_at: now,
        op_ended_at: null,
        op_error: null,
        op_warnings: null,
        updated_at: now,
      };
      if (existing) await tx.updateTable('git_syncs').set(settings).where('space_id', '=', spaceId).execute();
      else
        await tx
          .insertInto('git_syncs')
          .values({
            space_id: spaceId,
            installation_id: `git-${spaceId}`,
            redirects: null,
            last_commit: null,
            last_revision: null,
            last_timestamp: null,
            lease_job: null,
            lease_until: null,
            created_at: now,
            ...settings,
          })
          .execute();
      await this.services.jobs.enqueue(GIT_JOB, job, { tx });
    });
  }

  /** One sync job: under the space's lease, or put back for later when another one holds it. */
  private async runJob(job: SyncJob, context: JobContext): Promise<void> {
    if (!(await this.lease(job.spaceId, context.jobId))) {
      await this.services.jobs.enqueue(GIT_JOB, job, {
        runAt: new Date(this.deps.clock.now().getTime() + BUSY_RETRY_MS),
      });
      return;
    }
    const log = this.deps.log.child({ spaceId: job.spaceId, direction: job.direction });
    let started: { revisionId: string; commitId: string } | undefined;
    try {
      context.signal.throwIfAborted();
      const row = await this.row(job.spaceId);
      if (job.timestamp && row?.last_timestamp && job.timestamp < row.last_timestamp) {
        await this.record(job, 'success', null, [
          `ignored: this ${job.direction} was triggered at ${job.timestamp}, before the last sync applied (${row.last_timestamp})`,
        ]);
        return;
      }
      const credentials = job.sealed ? this.sealer.open(job.sealed) : undefined;
      // What the space and the repository held when the sync began.
      started = { revisionId: row?.last_revision ?? '', commitId: row?.last_commit ?? '' };
      await this.services.syncEvents.started(job.spaceId, started.revisionId, started.commitId);
      const outcome =
        job.direction === 'import'
          ? await runImport(this.deps, this.sync, job, credentials, row)
          : await runExport(this.deps, this.sync, job, credentials, row);
      await this.record(job, 'success', null, outcome.warnings);
      log.info({ commit: outcome.commit }, `git ${job.direction} done`);
      const after = await this.row(job.spaceId);
      await this.services.syncEvents.completed(
        job.spaceId,
        after?.last_revision ?? started.revisionId,
        outcome.commit ?? after?.last_commit ?? started.commitId,
        'success',
      );
    } catch (error) {
      const message = failureMessage(error);
      log.warn({ reason: message }, `git ${job.direction} failed`);
      await this.record(job, 'failure', message, error instanceof SyncFailure ? error.details : []);
      if (started) {
        await this.services.syncEvents.completed(
          job.spaceId,
          started.revisionId,
          started.commitId,
          'failure',
        );
      }
      if (!(error instanceof SyncFailure || error instanceof GitError || error instanceof OutboundError)) {
        if (!(error instanceof ApiError || error instanceof JobLeaseLost))
          log.error({ err: error }, 'git sync crashed');
      }
    } finally {
      this.cache.sweepSoon();
      await this.deps.db
        .updateTable('git_syncs')
        .set({ lease_job: null, lease_until: null })
        .where('space_id', '=', job.spaceId)
        .where('lease_job', '=', context.jobId)
        .execute();
    }
  }

  /**
   * Takes the space's lease for this job: free, already ours, or held by a job that is no longer
   * live (its server stopped, or it ended without letting go), which this one takes over.
   */
  private async lease(spaceId: string, jobId: string): Promise<boolean> {
    const take = async (holder: string | null) => {
      const result = await this.deps.db
        .updateTable('git_syncs')
        .set({ lease_job: jobId, lease_until: null })
        .where('space_id', '=', spaceId)
        .where((eb) =>
          holder === null
            ? eb.or([eb('lease_job', 'is', null), eb('lease_job', '=', jobId)])
            : eb('lease_job', '=', holder),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    };
    if (await take(null)) return true;
    const row = await this.row(spaceId);
    // No row (the installation was removed meanwhile): nothing to hold a lease on, run anyway.
    if (!row) return true;
    const holder = row.lease_job;
    if (holder === null) return take(null);
    if (await this.services.jobs.isLive(holder)) return false;
    if (!(await take(holder))) return false;
    this.deps.log.warn(
      { spaceId, jobId, previousJob: holder },
      'git sync takes the space over from a sync that is no longer running (its server stopped)',
    );
    return true;
  }

  /**
   * The job died with its server and is not run again: the operation it was running (unless a
   * later request replaced it) fails with a message saying so, and its lease goes.
   */
  private async lost(job: SyncJob, context: JobContext): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    const doing = job.direction === 'import' ? 'importing' : 'exporting';
    await this.deps.db
      .updateTable('git_syncs')
      .set({
        op_state: 'failure',
        op_direction: job.direction,
        op_ended_at: now,
        op_error: `the server stopped while ${doing}; start the ${job.direction} again`,
        op_warnings: null,
        updated_at: now,
      })
      .where('space_id', '=', job.spaceId)
      .where('op_state', '=', 'running')
      .where('op_started_at', '<=', context.enqueuedAt)
      .execute();
    await this.deps.db
      .updateTable('git_syncs')
      .set({ lease_job: null, lease_until: null })
      .where('space_id', '=', job.spaceId)
      .where('lease_job', '=', context.jobId)
      .execute();
  }

  private async record(job: SyncJob, state: 'success' | 'failure', error: string | null, warnings: string[]) {
    const now = this.deps.clock.now().toISOString();
    await this.deps.db
      .updateTable('git_syncs')
      .set({
        op_state: state,
        op_direction: job.direction,
        op_ended_at: now,
        op_error: error,
        op_warnings: warnings.length > 0 ? JSON.stringify(warnings) : null,
        updated_at: now,
      })
      .where('space_id', '=', job.spaceId)
      .execute();
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof GitError || error instanceof SyncFailure || error instanceof OutboundError)
    return error.message;
  if (error instanceof ApiError || error instanceof JobLeaseLost) return error.message;
  return 'the sync failed because of an internal error; see the server log';
}

/** The project directory, normalized; refuses absolute paths and paths leaving the repository. */
export function projectDirectory(raw: string | undefined): string {
  if (raw === undefined) return '';
  if (raw.startsWith('/') || raw.includes('\\'))
    throw invalidField('body.repoProjectDirectory', 'must be a path relative to the top of the repository');
  const parts: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' || part === '.git')
      throw invalidField('body.repoProjectDirectory', `must stay inside the repository ("${raw}" leaves it)`);
    parts.push(part);
  }
  return parts.join('/');
}

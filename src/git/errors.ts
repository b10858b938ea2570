/** Why a git command failed, for the person syncing (see runner.ts's classify). */
export type GitFailure = 'auth' | 'not-found' | 'unknown-ref' | 'network' | 'timeout' | 'rejected' | 'git';

export class GitError extends Error {
  constructor(
    readonly kind: GitFailure,
    message: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';

/** A job lease holder on this host whose process has exited (a server that was killed). */
export function killedServerHolder(): string {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return `w0rker:K1lledServer:${pid}:${hostname()}`;
}

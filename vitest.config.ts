import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default is one file fewer than cores: one at a time on a 2-core machine. Many of
    // our files spend their time waiting on other processes (the CLI, Chromium, git, workerd,
    // PostgreSQL) or on leases running out, so one file more than cores keeps both busy. The
    // suite on SQLite, 2 cores: one file at a time 669 s; with the lazy imports of f35c57f, three
    // at a time 445 s, four 506 s (with timeouts from the contention).
    maxWorkers: availableParallelism() + 1,
    // A worker runs its files one after another in one module graph, rather than loading the
    // server's 1,500 modules again for each file (vitest's import time, summed over the files:
    // 323 -> 44 s). Files keep nothing of theirs in module state: each builds its own app,
    // database and servers, and restores what it spies on. The suite on SQLite 445 -> 301 s.
    isolate: false,
    // A hang detector, not a speed check: three files share two cores, and a test that starts
    // processes takes two to three times as long as it does alone.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});

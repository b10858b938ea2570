/**
 * The Node flags a Quire server runs with. `npm start` (package.json) and the `quire` command
 * (main.ts's first line) pass them, test/unit/server-flags.test.ts checks the three agree, and the
 * benches run their servers with them, in their own process or started apart.
 *
 * `--max-semi-space-size=64` (MB; Node 20's default is 16): a 100-hit search allocates about 2 MB
 * in a few ms, and under the default young generation every minor collection found ~1.5 MB alive
 * that it had kept once already, so it moved it to the old generation, where it died: the old
 * generation grew ~1.5 MB every 90 ms until a full collection (`--trace-gc-nvp`, 100-hit
 * searches of the 100,000-page space: promotion 98% of the survivors, minor pauses 7 ms on
 * average). With 64 MB it stays put (58.4 -> 58.6 MB over the same searches), minor collections
 * come less than half as often, and full ones are rarer. bench/scale `pages` on SQLite, the same day,
 * without and with it, p99 of the 100,000-page side: GET page by id 52.2 -> 10.8 ms, merge 38.2
 * -> 7.3, first view of a published page 25.6 -> 10.4, space search 37.7 -> 28.4. The young
 * generation's memory is up to 3 x 64 MB instead of 3 x 16.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

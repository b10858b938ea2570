/**
 * Processing cost alone (the first part of bench/openapi/run.ts, without a server or a build):
 * Quire's engine against @scalar/json-magic `bundle` + @scalar/openapi-parser `validate` on the
 * spec.ts specification served from loopback, alternating. Target: ratio <= 1.5. Handy under
 * `--cpu-prof`:
 *
 *   npx tsx bench/openapi/process.ts [rounds]
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/openapi/process.ts 10 quire
 *
 * A second argument `quire` or `baseline` runs only that side (for a profile of one).
 */
import { baselineProcessor, measureProcessing, quireProcessor, serveSpec } from './processing.js';
import { splitSpec } from './spec.js';

const rounds = Number(process.argv[2] ?? 10);
const only = process.argv[3];
const spec = splitSpec();
const server = await serveSpec(spec);
try {
  const quire = quireProcessor(spec, server);
  const baseline = baselineProcessor(spec, server);
  const idle = async () => {};
  const figures = await measureProcessing(
    only === 'baseline' ? idle : quire,
    only === 'quire' ? idle : baseline,
    rounds,
    2,
  );
  const bytes = [...spec.files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  console.log(
    `spec: ${spec.operations} operations, ${spec.schemas} schemas, ${spec.files.size} files, ${(bytes / 1024).toFixed(0)} KiB`,
  );
  if (only !== 'baseline')
    console.log(`Quire processSpec        median ${figures.quireMedian.toFixed(0)} ms over ${rounds} rounds`);
  if (only !== 'quire')
    console.log(`scalar bundle + validate median ${figures.baselineMedian.toFixed(0)} ms`);
  if (only === undefined) console.log(`ratio ${figures.ratio.toFixed(2)} (target <= 1.5)`);
} finally {
  await server.close();
}

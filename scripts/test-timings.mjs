// A node:test reporter that prints, at the end of a run, each test file's time (the sum of its top-level
// tests' durations), slowest first: what to look at when `npm test` grows. Plain JavaScript (the test runner
// loads reporters before tsx), type-checked through JSDoc (tsconfig.scripts.json).
//   node --import tsx --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./scripts/test-timings.mjs --test-reporter-destination=timings.txt <files>

/** @typedef {{ type: string, data: { nesting?: number, file?: string, details?: { duration_ms?: number } } }} TestEvent */

/**
 * @param {AsyncIterable<TestEvent>} source
 * @returns {AsyncGenerator<string>}
 */
export default async function* timings(source) {
  /** @type {Map<string, number>} */
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const file = event.data.file ?? '(unknown file)';
    byFile.set(file, (byFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, ms]) => s + ms, 0);
  yield `test files by time (sum of their top-level tests), ${rows.length} files, ${(total / 1000).toFixed(1)} s in all:\n`;
  for (const [file, ms] of rows) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(`${process.cwd()}/`, '')}\n`;
}

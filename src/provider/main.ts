/**
 * Lean entry point of the bundled reference provider, for spawning it as a target without loading
 * the whole CLI:  node dist/src/provider/main.js [--http <port>] [--misbehave <mode>]
 * (`cgp-conformance provider` offers the same options plus --list-misbehaviours.)
 */
import { parseArgs } from 'node:util';
import { runProvider, UsageError } from './run.js';

function parse(argv: string[]): { http?: string; misbehave?: string } {
  const { values } = parseArgs({
    args: argv,
    options: { http: { type: 'string' }, misbehave: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  return values;
}

let options: { http?: string; misbehave?: string };
try {
  options = parse(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`example-docs: ${(err as Error).message}\n`);
  process.exit(2);
}
runProvider(options).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`example-docs: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);

// Builds the coverage report from Cucumber Messages NDJSON (one file per run; several are merged).
//
//   npm run report -- --messages reports/provider.messages.ndjson [--messages reports/host.messages.ndjson]
//                     [--out reports/] [--target "<name>"] [--side provider|host|both|auto]
//                     [--steps 'steps/**/*.ts']
//
// Writes coverage.json, coverage.md, coverage.html and badge.svg to --out (and step-index.json with --steps).
// Exit codes: 0 conformant (warnings allowed); 1 a MUST failed, an applicable anchor has no passing witness,
// or a tag/finding names an id the catalogue does not have; 2 usage error or unreadable message file.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildCoverage,
  conformanceVerdict,
  inferSide,
  MalformedMessagesError,
  readMessagesFile,
  renderBadge,
  renderHtml,
  renderMarkdown,
  serializeCoverage,
  UnknownCatalogueIdError,
  type RunSide,
} from '../src/conformance/report/index.js';

const USAGE =
  'usage: build-coverage --messages <file.ndjson> [--messages …] [--out reports/] [--target <name>] ' +
  "[--side provider|host|both|auto] [--steps 'steps/**/*.ts']";

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        messages: { type: 'string', multiple: true },
        out: { type: 'string', default: 'reports' },
        target: { type: 'string' },
        side: { type: 'string', default: 'auto' },
        steps: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const messages = values.messages ?? [];
  if (messages.length === 0) {
    process.stderr.write(`at least one --messages file is required\n${USAGE}\n`);
    return 2;
  }
  const sideArg = values.side ?? 'auto';
  if (!['provider', 'host', 'both', 'auto'].includes(sideArg)) {
    process.stderr.write(`--side must be provider, host, both or auto (got "${sideArg}")\n`);
    return 2;
  }
  const outDir = values.out ?? 'reports';
  try {
    const side: RunSide | undefined = sideArg === 'auto' ? inferSide(messages) : (sideArg as RunSide);
    if (side === undefined) {
      process.stderr.write('no scenario carries @provider or @host: pass --side provider|host|both\n');
      return 2;
    }
    const target = values.target ?? (side === 'both' ? 'provider + host' : side);
    const report = buildCoverage({ messages, target, side });
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'coverage.json'), serializeCoverage(report));
    writeFileSync(join(outDir, 'coverage.md'), renderMarkdown(report));
    writeFileSync(join(outDir, 'coverage.html'), renderHtml(report));
    writeFileSync(join(outDir, 'badge.svg'), renderBadge(report));
    if (values.steps && values.steps.length > 0) {
      const { indexStepDefinitions, joinStepIndex } = await import('../src/conformance/report/step-index.js');
      const citations = await indexStepDefinitions(values.steps);
      const joined = joinStepIndex(citations, messages.map((m) => readMessagesFile(m)));
      writeFileSync(join(outDir, 'step-index.json'), `${JSON.stringify(joined, null, 2)}\n`);
    }
    const s = report.summary;
    process.stderr.write(
      `coverage (${side}): ${s.witnessed} witnessed, ${s.warning} warning, ${s.failed} failed, ${s.unwitnessed} unwitnessed, ` +
        `${s.not_applicable} not applicable — ${s.applicable} applicable of ${report.anchors.length} anchors; wrote ${outDir}/\n`,
    );
    const verdict = conformanceVerdict(report);
    if (verdict.conformant) return 0;
    if (verdict.mustFailed.length > 0) {
      process.stderr.write(`\n❌ MUST FAILED (${verdict.mustFailed.length}):\n`);
      for (const e of verdict.mustFailed) {
        const by = e.witnesses.filter((w) => w.status === 'failed').map((w) => `${w.feature}:${w.line}`);
        process.stderr.write(`   ❌ ${e.id}  ${by.join(', ')}\n`);
      }
    }
    if (verdict.unwitnessed.length > 0) {
      process.stderr.write(`\n❌ APPLICABLE ANCHORS WITHOUT A PASSING WITNESS (${verdict.unwitnessed.length}):\n`);
      for (const e of verdict.unwitnessed) process.stderr.write(`   ❌ ${e.id}  ${e.status}${e.reason ? ` — ${e.reason}` : ''}\n`);
    }
    process.stderr.write('\nNOT CONFORMANT\n');
    return 1;
  } catch (err) {
    if (err instanceof UnknownCatalogueIdError) {
      process.stderr.write(`❌ ${err.message}\n`);
      return 1;
    }
    if (err instanceof MalformedMessagesError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));

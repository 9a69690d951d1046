// Development job: which step definitions cite which ids in their comments, joined with the runs' messages
// (ts-morph reads the TypeScript steps, so it is not part of the installed CLI).
//
//   npx tsx scripts/build-step-index.ts --messages reports/provider.messages.ndjson [--messages …]
//                                       [--steps 'steps/**/*.ts'] [--out reports/]
//
// Writes <out>/step-index.json. Exit codes: 0 written; 2 usage error or unreadable message file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MalformedMessagesError, readMessagesFile } from '../src/conformance/report/index.js';
import { indexStepDefinitions, joinStepIndex } from '../src/conformance/report/step-index.js';

const USAGE = "usage: build-step-index --messages <file.ndjson> [--messages …] [--steps 'steps/**/*.ts'] [--out reports/]";

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { messages: { type: 'string', multiple: true }, steps: { type: 'string', multiple: true }, out: { type: 'string', default: 'reports' } },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const messages = values.messages ?? [];
  if (messages.length === 0) {
    process.stderr.write(`at least one --messages file is required\n${USAGE}\n`);
    return 2;
  }
  try {
    const citations = await indexStepDefinitions(values.steps ?? ['steps/**/*.ts']);
    const joined = joinStepIndex(
      citations,
      messages.map((m) => readMessagesFile(m)),
    );
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, 'step-index.json'), `${JSON.stringify(joined, null, 2)}\n`);
    process.stderr.write(`wrote ${join(values.out, 'step-index.json')}\n`);
    return 0;
  } catch (err) {
    if (err instanceof MalformedMessagesError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));

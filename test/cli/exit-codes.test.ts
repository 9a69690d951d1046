import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Command } from 'commander';
import { EXIT_CODE_MEANINGS, EXIT_HARNESS_ERROR, EXIT_MUST_FAILED, EXIT_NEVER_ANSWERED, EXIT_OK, EXIT_USAGE, exitCodesHelp } from '../../src/conformance/run/exit-codes.js';
import * as library from '../../src/index.js';
import { addCommonSuiteOptions } from '../../src/cli/suite-command.js';

test('the exit codes are 0–4, one meaning each, and the library exports the same numbers', () => {
  assert.deepEqual([EXIT_OK, EXIT_MUST_FAILED, EXIT_USAGE, EXIT_NEVER_ANSWERED, EXIT_HARNESS_ERROR], [0, 1, 2, 3, 4]);
  assert.deepEqual(Object.keys(EXIT_CODE_MEANINGS), ['0', '1', '2', '3', '4']);
  assert.equal(library.EXIT_MUST_FAILED, EXIT_MUST_FAILED);
  assert.equal(library.EXIT_HARNESS_ERROR, EXIT_HARNESS_ERROR);
});

test('a suite command --help prints the table of exit-codes.ts, and an override rewords one code only', () => {
  const cmd = addCommonSuiteOptions(new Command('stdio').exitOverride(), 'provider');
  let help = '';
  cmd.configureOutput({ writeOut: (s) => (help += s) });
  cmd.outputHelp();
  assert.ok(help.includes(exitCodesHelp().trim()), help);
  for (const meaning of Object.values(EXIT_CODE_MEANINGS)) assert.ok(help.includes(meaning), meaning);
  const fuzz = exitCodesHelp({ [EXIT_MUST_FAILED]: 'a finding' });
  assert.match(fuzz, /^ {2}1 {2}a finding$/m);
  assert.match(fuzz, /^ {2}3 {2}the target never answered the handshake$/m);
});

// The composite action (action.yml at the repository root) and the script its steps run
// (scripts/action/run.sh), run here as a CI runner would run it, with the CLI of this checkout in place of
// an installed one: the JUnit file and the page land in the output directory, the step's outputs name them
// and carry the suite's exit code, and a step given no target (or two) is one line and exit 2.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { bundledProviderCommand } from '../../../src/conformance/provider-suite/config.js';
import { BIN, ROOT, scratch } from './helpers.js';

const SCRIPT = join(ROOT, 'scripts', 'action', 'run.sh');
const CLI = `${process.execPath} --import ${import.meta.resolve('tsx')} ${BIN}`;

function runAction(env: Record<string, string>, cwd: string): Promise<{ code: number | null; stderr: string; outputs: Record<string, string> }> {
  const outputsFile = join(cwd, 'github-output');
  writeFileSync(outputsFile, '');
  return new Promise((resolve) => {
    const child = spawn('bash', [SCRIPT], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CGP_CONFORMANCE_CLI: CLI, GITHUB_OUTPUT: outputsFile, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const outputs = Object.fromEntries(
        readFileSync(outputsFile, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      resolve({ code, stderr, outputs });
    });
  });
}

describe('the composite action', () => {
  it('action.yml declares every input the script reads, and runs the script', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown>; runs: { using: string; steps: Array<{ run?: string; env?: Record<string, string> }> } };
    assert.equal(action.runs.using, 'composite');
    const step = action.runs.steps.find((s) => s.run?.includes('scripts/action/run.sh'));
    assert.ok(step, 'a step runs scripts/action/run.sh');
    const read = new Set([...readFileSync(SCRIPT, 'utf8').matchAll(/\bINPUT_([A-Z_]+)/g)].map((m) => m[1]!));
    for (const name of read) {
      const input = name.toLowerCase().replace(/_/g, '-');
      assert.ok(input in action.inputs, `input ${input} is declared`);
      assert.equal(step.env?.[`INPUT_${name}`], `\${{ inputs.${input} }}`, `INPUT_${name} is passed to the script`);
    }
  });

  it('a failing provider: the JUnit file and the page, the exit code in the outputs', { timeout: 200_000 }, async () => {
    const dir = scratch('action');
    const b = bundledProviderCommand(ROOT);
    const provider = [b.command, ...b.args.map((a) => (a === 'tsx' ? import.meta.resolve('tsx') : a)), '--misbehave', 'ignore-max-frames'].join(' ');
    const r = await runAction({ INPUT_STDIO: provider, INPUT_TAGS: '@B4', INPUT_OUT: 'reports' }, dir);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.outputs['exit-code'], '1');
    assert.equal(r.outputs.junit, 'reports/junit.xml');
    assert.equal(r.outputs.html, 'reports/index.html');
    assert.match(readFileSync(join(dir, 'reports', 'junit.xml'), 'utf8'), /<failure[^>]*B4 violated/);
    assert.match(readFileSync(join(dir, 'reports', 'index.html'), 'utf8'), /B4/);
  });

  it('a matrix file: the site in the output directory', { timeout: 200_000 }, async () => {
    const dir = scratch('action-matrix');
    writeFileSync(join(dir, 'm.yml'), 'implementations:\n  - name: p\n    side: provider\n    bundled: true\n    tags: "@B4"\n');
    const r = await runAction({ INPUT_MATRIX: 'm.yml', INPUT_OUT: 'site' }, dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(dir, 'site', 'index.html')) && existsSync(join(dir, 'site', 'runs', 'p', 'p.junit.xml')));
  });

  it('no target, or two: one line, exit 2', { timeout: 30_000 }, async () => {
    const dir = scratch('action-bad');
    const cases: Array<Record<string, string>> = [{}, { INPUT_STDIO: 'x', INPUT_URL: 'http://127.0.0.1:1/' }];
    for (const env of cases) {
      const r = await runAction(env, dir);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /give exactly one of stdio, url, host-cmd, adapter, bundled, matrix/);
      assert.equal(r.outputs['exit-code'], '2');
    }
  });
});

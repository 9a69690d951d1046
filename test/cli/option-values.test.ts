// An option value that looks like one of the command's options is a usage error (exit 2), named on one line —
// never taken as the value (`--html --out dir` once ran the suite and failed spawning "dir" as the provider).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { main } from '../../src/cli/main.js';

async function run(argv: string[]): Promise<{ code: number; stderr: string }> {
  const write = process.stderr.write.bind(process.stderr);
  let stderr = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stderr.write;
  const before = process.exitCode;
  try {
    const code = await main(argv);
    return { code, stderr };
  } finally {
    process.stderr.write = write;
    process.exitCode = before;
  }
}

describe('an option value that is an option', () => {
  it('stdio --html --out dir -- <provider>: exit 2 naming --html and --out, nothing spawned', async () => {
    const { code, stderr } = await run(['stdio', '--html', '--out', 'some-dir', '--', 'node', 'provider.js']);
    assert.equal(code, 2);
    assert.match(stderr, /option '--html <file>' needs a value, but got the option '--out'/);
    assert.doesNotMatch(stderr, /spawn/);
  });

  it('a short option as the value is refused too; a value starting with "-" that names no option is kept', async () => {
    const refused = await run(['stdio', '--tags', '-h', '--', 'node', 'provider.js']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /option '--tags <expression>' needs a value, but got the option '-h'/);
    // "-x" names no option: it is the tag expression (a bad one: the suite refuses it as such, exit 2, no spawn)
    const kept = await run(['stdio', '--tags', '-x', '--', 'node', 'provider.js']);
    assert.doesNotMatch(kept.stderr, /needs a value, but got the option/);
  });
});

#!/usr/bin/env node
import * as nodeModule from 'node:module';
import { main } from './main.js';

// Node's own on-disk compile cache (node >= 22.1; a no-op on older nodes): the modules a command loads after
// this line — its own and cucumber's — are compiled once per node version and read back on later runs. Node
// writes it in the OS temp directory (NODE_COMPILE_CACHE names another, NODE_DISABLE_COMPILE_CACHE=1 turns it
// off), checks it against each module's source, and recompiles what does not match (docs/cli.md "Start-up").
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that stops early (`… | head -1`) closes our stdout: end quietly, with the code we have.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw err;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`cgp-conformance: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);

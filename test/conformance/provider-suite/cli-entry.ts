// Test entry: the CLI as the bin builds it (src/cli/main.ts), run through tsx so the tests need no build.
// Usage: node --import tsx test/conformance/provider-suite/cli-entry.ts stdio [options] -- <command…>
import { main } from '../../../src/cli/main.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

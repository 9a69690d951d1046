// cucumber-js profiles for this package's features. The target comes from the environment: CGP_PROVIDER
// (a stdio command line) / CGP_PROVIDER_URL (HTTP) / CGP_MISBEHAVE (default: the bundled reference provider);
// host scenarios (@host) run against CGP_HOST (an adapter module) or CGP_HOST_CMD (a controlled process),
// default the bundled host.
//
// Installed as a dependency: in YOUR project's cucumber.mjs write
//     export { default } from 'cgp-conformance/cucumber';
// (or run `npx cucumber-js -c node_modules/cgp-conformance/cucumber.mjs`), then
//     CGP_PROVIDER="python my_provider.py" npx cucumber-js --tags @B3
// The installed package runs its compiled steps (dist/), nothing else is needed.
//
// In this repository (development): the default profile loads the TypeScript steps through tsx (no build
// needed); `-p dist` runs the compiled ones (npm run build first). `cgp-conformance stdio|http|host` run the
// same features through cucumber's JS API.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const common = {
  paths: ['provider', 'host', 'types'].map((side) => join(here, 'features', side, '**', '*.feature')),
  format: ['progress'],
  forceExit: true,
};
const compiled = { ...common, import: [join(here, 'dist', 'steps', '**', '*.js')] };
// a development checkout has the TypeScript steps (the published package ships only dist/)
const development = existsSync(join(here, 'steps', 'world.ts')) ? { ...common, import: [join(here, 'steps', 'tsx-register.mjs'), join(here, 'steps', '**', '*.ts')] } : compiled;

export default development;
export const dist = compiled;

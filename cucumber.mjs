// cucumber-js profiles. Default (development): TypeScript steps through tsx, so `npx cucumber-js --tags @F5`
// works without a build. `-p dist`: the compiled steps (npm run build first). The target comes from the
// environment (CGP_PROVIDER / CGP_PROVIDER_URL / CGP_MISBEHAVE; default: the bundled reference provider).
// `cgp-conformance stdio|http` and src/conformance/run-suite.ts run the same features through the JS API.
// Host scenarios (@host) run against CGP_HOST (a module exporting createHost; default the bundled host; CGP_HOST_MISBEHAVE=<mode> for the red team).
const common = {
  paths: ['features/provider/**/*.feature', 'features/host/**/*.feature', 'features/types/**/*.feature'],
  format: ['progress'],
  forceExit: true,
};

export default { ...common, import: ['./steps/tsx-register.mjs', 'steps/**/*.ts'] };

export const dist = { ...common, import: ['dist/steps/**/*.js'] };

/**
 * Loads one command's module (./commands/<name>.js) when a run chose it. Its own module so that the one-file
 * build of the CLI (scripts/finish-build.mjs) can put in its place the same import of the compiled module,
 * made by that build's loader (code run from a V8 code cache has no import() of its own).
 */
export function importCommand<T>(name: string): Promise<T> {
  return import(`./commands/${name}.js`) as Promise<T>;
}

/**
 * Loads the module of a command that runs a suite through cucumber (stdio, http, host, certify). Here the same
 * as importCommand; in the one-file build of the CLI, the command from the one-file build of the suites
 * (dist/bundle/suite.cjs: the commands, their step definitions and what they import, linked into one file),
 * where the build made one.
 */
export function importSuiteCommand<T>(name: string): Promise<T> {
  return importCommand<T>(name);
}

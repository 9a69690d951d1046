/**
 * Loads one command's module (./commands/<name>.js) when a run chose it. The specifier is a URL made at run
 * time, so the CLI's bundle (scripts/build.ts) leaves the import as it is: the command runs as the compiled
 * ES module it is, beside the modules the suites' step definitions import (one copy of each).
 */
const COMMANDS_DIR = new URL('./commands/', import.meta.url);

export function importCommand<T>(name: string): Promise<T> {
  return import(new URL(`${name}.js`, COMMANDS_DIR).href) as Promise<T>;
}

/** Loads the module of a command that runs a suite through cucumber (stdio, http, host, certify): as any other. */
export function importSuiteCommand<T>(name: string): Promise<T> {
  return importCommand<T>(name);
}

/**
 * Loads one command's module (./commands/<name>.js) when a run chose it. Its own module so that the one-file
 * build of the CLI (scripts/finish-build.mjs) can put in its place the same import of the compiled module,
 * made by that build's loader (code run from a V8 code cache has no import() of its own).
 */
export function importCommand<T>(name: string): Promise<T> {
  return import(`./commands/${name}.js`) as Promise<T>;
}

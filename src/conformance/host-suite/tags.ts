/** The anchor and rule ids among a scenario's tags (side and capability tags removed). */
const NON_ID = new Set(['@host', '@provider', '@composition', '@types']);

export function idsOfTags(tags: readonly string[]): string[] {
  return tags.filter((t) => !NON_ID.has(t) && !t.startsWith('@needs-') && !t.startsWith('@wip')).map((t) => t.slice(1));
}

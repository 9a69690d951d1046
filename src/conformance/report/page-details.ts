// The details coverage.html shows beyond coverage.json (failure messages, wire transcripts, the target's
// handshake_ack), read from the same Cucumber Messages files the coverage is built from.
import { readFileSync } from 'node:fs';
import { summarize, type CucumberMessage } from '../provider-suite/summary.js';
import type { PageDetails } from './render-html.js';
import { MalformedMessagesError } from './types.js';

export function detailsFromMessages(paths: readonly string[]): PageDetails {
  const scenarios: NonNullable<PageDetails['scenarios']>[number][] = [];
  let target: PageDetails['target'];
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new MalformedMessagesError(path, `cannot read: ${(err as Error).message}`);
    }
    const messages: CucumberMessage[] = [];
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        messages.push(JSON.parse(line) as CucumberMessage);
      } catch {
        throw new MalformedMessagesError(path, `line ${i + 1} is not JSON`);
      }
    });
    const s = summarize(messages);
    scenarios.push(...s.scenarios);
    target ??= s.target;
  }
  return { scenarios, ...(target !== undefined ? { target } : {}) };
}

/**
 * S6.2-digested-bytes (with F5): re-read the exact bytes every `file` provenance link addresses (uri + range,
 * no normalisation) through src/host/f5-bytes' verifyFileProvenance, and compare their sha256 with the
 * declared digest. Only files under roots the harness trusts are ever opened: the bundled provider's fixture
 * folder, or CGP_PROVIDER_FILE_ROOTS. A mismatch is a warning (the §6.2 definition is not a MUST).
 */
import type { Provenance } from '../../../../generated/types/index.js';
import { verifyFileProvenance } from '../../../host/f5-bytes.js';
import { warning } from '../../../protocol/findings.js';
import { isJsonObject } from '../../../protocol/json-value.js';
import type { ScenarioProbe } from '../scenario.js';

export async function rereadFileProvenance(p: ScenarioProbe): Promise<void> {
  const roots = p.config.trustedRoots;
  const seen = new Set<string>();
  let links = 0;
  let verified = 0;
  const skipped: string[] = [];
  const pending: Array<{ link: Record<string, unknown>; at: string; frameId: unknown }> = [];
  for (const answer of p.answers) {
    answer.frames.forEach((frame, fi) => {
      if (!Array.isArray(frame.provenance)) return;
      frame.provenance.forEach((link, li) => {
        if (!isJsonObject(link) || link.type !== 'file') return;
        const key = JSON.stringify([link.uri, link.range ?? null, link.digest ?? null]);
        if (seen.has(key)) return;
        seen.add(key);
        links++;
        pending.push({ link, at: `/result/frames/${fi}/provenance/${li}`, frameId: frame.id });
      });
    });
  }
  if (roots.length === 0) {
    p.ledger.unwitnessedBecause('S6.2-digested-bytes', 'no file roots are trusted for this target (set CGP_PROVIDER_FILE_ROOTS); the harness never reads files outside them');
    return;
  }
  for (const { link, at, frameId } of pending) {
    const result = await verifyFileProvenance(link as unknown as Provenance, { trustedRoots: roots });
    if (result.status === 'match') verified++;
    else if (result.status === 'mismatch') {
      verified++;
      p.ledger.add([
        warning(
          'S6.2-digested-bytes',
          `${at}/digest`,
          `frame ${JSON.stringify(frameId)} file provenance ${JSON.stringify(link.uri)}${typeof link.range === 'string' ? ` range ${link.range}` : ''} declares ${result.declared}, but the exact bytes it addresses hash to ${result.actual}`,
        ),
      ]);
    } else skipped.push(`${JSON.stringify(link.uri)}: ${result.status} (${result.reason ?? 'no reason given'})`);
  }
  p.ledger.witness('S6.2-digested-bytes', verified);
  if (skipped.length > 0) p.notes.push(`file provenance not re-read: ${skipped.slice(0, 5).join('; ')}${skipped.length > 5 ? ` (+${skipped.length - 5} more)` : ''}`);
  if (verified === 0) {
    p.ledger.unwitnessedBecause(
      'S6.2-digested-bytes',
      links === 0 ? 'no answer carried a file provenance link' : `none of the ${links} file provenance link(s) could be read under the trusted roots (${skipped[0] ?? ''})`,
    );
  }
}

/**
 * Capability tags (docs/architecture.md "Tags and capabilities"): a scenario tagged `@needs-<x>` applies only to a target that declares
 * <x>. An undeclared need makes the scenario NOT-APPLICABLE with a reason — never a pass.
 *
 * Needs decided by the target kind alone (stdio, http, in-process) are known before any I/O; the others are
 * read from the shared handshake_ack. When the handshake produced no ack, a need cannot be decided: the
 * scenario then runs and fails on the handshake, rather than being excused.
 */
import { hasValue, isJsonObject, type JsonObject } from '../../protocol/json-value.js';
import type { SuiteConfig } from './config.js';
import { HarnessError } from './errors.js';

export type Applicability = { applicable: true } | { applicable: false; reason: string };

type Need = { byTarget: (config: SuiteConfig) => Applicability } | { byAck: (ack: JsonObject) => Applicability };

const yes: Applicability = { applicable: true };
const no = (reason: string): Applicability => ({ applicable: false, reason });

function caps(ack: JsonObject): JsonObject {
  return isJsonObject(ack.capabilities) ? ack.capabilities : {};
}

function representations(ack: JsonObject): unknown[] {
  const reps = caps(ack).representations;
  return Array.isArray(reps) ? reps : [];
}

export const NEEDS: Readonly<Record<string, Need>> = {
  'needs-stdio': { byTarget: (c) => (c.target.kind === 'stdio' ? yes : no(`the target is reached over ${c.target.kind}, and this probe needs the stdio binding`)) },
  'needs-http': { byTarget: (c) => (c.target.kind === 'http' ? yes : no(`the target is reached over ${c.target.kind}, and this probe needs the HTTP binding`)) },
  'needs-in-process': {
    byTarget: (c) => (c.target.kind === 'in-process' ? yes : no(`the target is reached over a transport binding (${c.target.kind}); the rule concerns in-process providers only`)),
  },
  'needs-correlation': { byAck: (a) => (caps(a).correlation === true ? yes : no('the target does not declare capabilities.correlation')) },
  'needs-graph': { byAck: (a) => (caps(a).graph === true ? yes : no('the target does not declare capabilities.graph')) },
  'needs-verify': { byAck: (a) => (caps(a).verify === true ? yes : no('the target does not declare capabilities.verify')) },
  'needs-embeddings': {
    byAck: (a) => (hasValue(caps(a), 'embeddings_fingerprint') ? yes : no('the target declares no capabilities.embeddings_fingerprint')),
  },
  'needs-attestation': {
    byAck: (a) => (Array.isArray(a.attester_keys) && a.attester_keys.length > 0 ? yes : no('the target publishes no attester_keys in its handshake_ack')),
  },
  'needs-compact': { byAck: (a) => (representations(a).includes('compact') ? yes : no('the target does not advertise the compact representation')) },
  'needs-reference': { byAck: (a) => (representations(a).includes('reference') ? yes : no('the target does not advertise the reference representation')) },
};

/** The `needs-*` tags among a scenario's tags (without `@`). Unknown needs are a harness error. */
export function needsOf(tags: readonly string[]): string[] {
  const needs = tags.map((t) => t.replace(/^@/, '')).filter((t) => t.startsWith('needs-'));
  for (const n of needs)
    if (!(n in NEEDS))
      throw new HarnessError(
        `unknown capability tag @${n}; known: ${Object.keys(NEEDS)
          .map((k) => `@${k}`)
          .join(', ')}`,
      );
  return needs;
}

export function needsAck(needs: readonly string[]): boolean {
  return needs.some((n) => 'byAck' in NEEDS[n]!);
}

/** First unmet need, or applicable. `ack` undefined = the target gave no ack (ack-based needs are then not excused). */
export function applicability(needs: readonly string[], config: SuiteConfig, ack: JsonObject | undefined): Applicability {
  for (const n of needs) {
    const need = NEEDS[n]!;
    if ('byTarget' in need) {
      const a = need.byTarget(config);
      if (!a.applicable) return { applicable: false, reason: `@${n}: ${a.reason}` };
    } else if (ack !== undefined) {
      const a = need.byAck(ack);
      if (!a.applicable) return { applicable: false, reason: `@${n}: ${a.reason}` };
    }
  }
  return yes;
}

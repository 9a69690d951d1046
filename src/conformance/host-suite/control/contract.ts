/**
 * The host contract, as the suite holds a host to it (docs/host-control-protocol.md): every operation's
 * result is validated against its published JSON Schema (schema/host-control/<op>.schema.json) before a
 * check reads it. A result that breaks its schema is a CONTRACT error — it names the operation, the field
 * and the schema path — and the scenario is inconclusive (a harness-side error kept apart), never a
 * finding against an anchor: the suite cannot judge what it cannot read.
 *
 * Errors are structured ({code, message, anchor?, scopes?, provider?, …}); `not_supported` is the one
 * standard code: "this host does not have this operation or feature" (capabilities.ts decides what that
 * makes of the scenario).
 */
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { HOST_CONTROL_VALIDATORS } from '../../../../generated/validators/host-control.js';
import { HarnessError } from '../../provider-suite/errors.js';
import { findPackageRoot } from '../../../util/package-root.js';
import type { ControlOperation } from './control-protocol.js';

export const CONTRACT_SCHEMA_BASE = 'https://cgp-conformance.dev/schema/host-control/';

/** The directory of the published host-control schemas (shipped in the package). */
export function contractSchemaDir(): string {
  return join(findPackageRoot(), 'schema', 'host-control');
}

/** One schema violation of an operation's result (or arguments). */
export interface ContractIssue {
  op: string;
  part: 'args' | 'result';
  /** JSON pointer of the offending value ("" = the whole value; for a missing member, where it would be). */
  field: string;
  /** Where the failing keyword is, e.g. `compose.schema.json#/$defs/result/required`. */
  schemaPath: string;
  message: string;
}

function issueOf(op: string, part: 'args' | 'result', e: ErrorObject): ContractIssue {
  const missing = e.keyword === 'required' ? `/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : '';
  // the validators are compiled from the published files ahead of time (generated/validators/host-control.ts),
  // with every schemaPath already `<file>#<pointer>` into them
  return { op, part, field: `${e.instancePath}${missing}`, schemaPath: e.schemaPath, message: e.keyword === 'required' ? 'is required' : (e.message ?? e.keyword) };
}

/** The schema violations of `value` as `op`'s result (or args); [] when it conforms. */
export function contractIssues(op: ControlOperation | string, part: 'args' | 'result', value: unknown): ContractIssue[] {
  const v = HOST_CONTROL_VALIDATORS[`${op}/${part}`];
  if (v === undefined) return [{ op, part, field: '', schemaPath: `${op}.schema.json`, message: `no published schema for operation ${JSON.stringify(op)}` }];
  if (v(value) === true) return [];
  // anyOf/oneOf branches report every branch; keep the deepest (most specific) few
  const errors = [...(v.errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
  const seen = new Set<string>();
  const out: ContractIssue[] = [];
  for (const e of errors) {
    const issue = issueOf(op, part, e);
    const key = `${issue.field} ${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out.slice(0, 5);
}

/**
 * A host result that breaks the published contract: the scenario is inconclusive for it (kept apart from
 * findings, like any harness-side error), naming the operation, the field and the schema path.
 */
export class ContractError extends HarnessError {
  readonly issues: readonly ContractIssue[];
  constructor(issues: readonly ContractIssue[]) {
    const first = issues[0]!;
    const list = issues.map((i) => `${i.field === '' ? '(the whole value)' : i.field} ${i.message} (schema ${i.schemaPath})`).join('; ');
    super(`contract error: the ${first.op} ${first.part === 'result' ? 'result breaks' : 'arguments break'} schema/host-control/${first.op}.schema.json — ${list}`);
    this.name = 'ContractError';
    this.issues = issues;
  }
}

/** Throw a ContractError when `value` is not a valid `op` result. */
export function assertContract(op: ControlOperation | string, value: unknown, part: 'args' | 'result' = 'result'): void {
  const issues = contractIssues(op, part, value);
  if (issues.length > 0) throw new ContractError(issues);
}

/** The standard error code of an operation or feature the host does not have. */
export const NOT_SUPPORTED = 'not_supported';

export function isNotSupported(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === NOT_SUPPORTED;
}

/** Correlation misbehaviours (H4): ids dropped or replaced on frames, errors and verified. */
import type { ModeHooks } from './shared.js';
import type { OutEnvelope } from '../wire.js';

function dropId(type: string): (env: OutEnvelope) => OutEnvelope {
  return (env) => {
    if (env.type !== type || env.id === undefined) return env;
    const { id: _dropped, ...rest } = env;
    return rest as OutEnvelope;
  };
}

function wrongId(type: string): (env: OutEnvelope) => OutEnvelope {
  return (env) => (env.type === type && env.id !== undefined ? { ...env, id: `${String(env.id)}-x` } : env);
}

export const CORRELATION_MODES = {
  'drop-correlation-id': { outgoing: dropId('frames') },
  'error-drops-correlation-id': { outgoing: dropId('error') },
  'wrong-correlation-id': { outgoing: wrongId('frames') },
  'wrong-verify-correlation-id': { outgoing: wrongId('verified') },
  // echoes an id with every non-ASCII character replaced by "?" (an ASCII-only id store)
  'ascii-correlation-id': {
    outgoing: (env) => (typeof env.id === 'string' && /[^\x20-\x7e]/.test(env.id) ? { ...env, id: env.id.replace(/[^\x20-\x7e]/g, '?') } : env),
  },
  // trims and lower-cases every id it echoes
  'normalised-correlation-id': {
    outgoing: (env) => (typeof env.id === 'string' && env.id.trim().toLowerCase() !== env.id ? { ...env, id: env.id.trim().toLowerCase() } : env),
  },
  'verify-error-drops-id': {
    outgoing: (env, ctx) => (env.type === 'error' && ctx.request?.type === 'verify' ? dropId('error')(env) : env),
  },
} satisfies ModeHooks;

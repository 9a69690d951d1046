/** Handshake and data-flow misbehaviours: H1, H2, H3, C5, U3 (scopes), §6.4.1 resolve. */
import { hang, noReply, type ModeHooks } from './shared.js';
import type { AckEnvelope, Answer } from '../hooks.js';

function isIncompatibleVersion(answer: Answer): boolean {
  return answer.envelopes[0]?.type === 'error' && answer.envelopes[0].code === 'incompatible_version';
}

function withAck(edit: (ack: AckEnvelope) => void): (ack: AckEnvelope) => AckEnvelope {
  return (ack) => {
    const copy = structuredClone(ack);
    edit(copy);
    return copy;
  };
}

export const HANDSHAKE_MODES = {
  'single-digit-minor': {
    // reads the minor as ONE digit: contextgraph/1.10 is refused as foreign (§3.1: minor = 1*DIGIT)
    inbound: (env) => {
      const v = env.protocol_version;
      if (env.type !== 'handshake' || typeof v !== 'string' || !/^contextgraph\/1\.[0-9]{2,}/.test(v)) return undefined;
      return { envelopes: [{ type: 'error', code: 'incompatible_version', message: `unsupported version ${v}` }] };
    },
  },
  'bad-version': {
    ack: withAck((a) => {
      a.protocol_version = 'contextgraph/2.0';
    }),
  },
  'empty-provider-name': {
    ack: withAck((a) => {
      a.provider.name = '';
    }),
  },
  'empty-provider-version': {
    ack: withAck((a) => {
      a.provider.version = '';
    }),
  },
  'accept-foreign-handshake': {
    handshake: (honest, ctx) => (isIncompatibleVersion(honest) ? { envelopes: [structuredClone(ctx.ack)] } : honest),
  },
  'foreign-handshake-wrong-code': {
    handshake: (honest) => (isIncompatibleVersion(honest) ? { envelopes: [{ ...honest.envelopes[0]!, code: 'bad_request' }] } : honest),
  },
  'hang-on-foreign-handshake': {
    handshake: (honest) => (isIncompatibleVersion(honest) ? hang() : honest),
  },
  'prefix-version-family': {
    // "contextgraph/1" as a string prefix: contextgraph/10.0 passes as family 1
    inbound: (env, ctx) => {
      const v = env.protocol_version;
      if (env.type !== 'handshake' || typeof v !== 'string' || !v.startsWith('contextgraph/1') || /^contextgraph\/1\./.test(v)) return undefined;
      return { envelopes: [structuredClone(ctx.ack)] };
    },
  },
  'accept-older-family': {
    // compares majors with <= instead of ==
    inbound: (env, ctx) => {
      const m = typeof env.protocol_version === 'string' ? /^contextgraph\/(\d+)\./.exec(env.protocol_version) : null;
      if (env.type !== 'handshake' || !m || Number(m[1]) >= 1) return undefined;
      return { envelopes: [structuredClone(ctx.ack)] };
    },
  },
  'silent-second-handshake': {
    handshake: (honest, ctx) => {
      if (ctx.state.get('handshaken') === true) return noReply();
      if (honest.envelopes[0]?.type === 'handshake_ack') ctx.state.set('handshaken', true);
      return honest;
    },
  },
  'scope-lie': {
    ack: withAck((a) => {
      a.provider.data_flow = { reads: true, writes: false, egress: false, egress_scopes: ['third-party-index'] };
    }),
  },
  'custom-scope-lie': {
    ack: withAck((a) => {
      a.provider.data_flow = { reads: true, writes: false, egress: false, egress_scopes: ['acme:mirror'] };
    }),
  },
  'malformed-namespaced-scope': {
    ack: withAck((a) => {
      a.provider.data_flow = { reads: true, writes: false, egress: true, egress_scopes: ['acme:'] };
    }),
  },
  'compact-without-resolve': {
    ack: withAck((a) => {
      a.capabilities.resolve = false;
    }),
  },
} satisfies ModeHooks;

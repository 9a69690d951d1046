// Loopback detection (docs/interpretations.md §11) and the C7 URL gate.
//
// Loopback = `localhost` (ASCII case-insensitive), an IPv4 literal in 127.0.0.0/8, or the IPv6 literal ::1
// (any spelling of it, brackets allowed). Everything else — names that merely start with "127.", IPv4-mapped
// IPv6 (::ffff:127.0.0.1), `localhost.` — is non-loopback: treated as egress (C4) and TLS-only (C7). Refusing
// too much here is safe; refusing too little would leak a payload.
import net from 'node:net';
import { InsecureTransportError, InvalidUrlError } from './errors.js';

const ipv6Loopback = new net.BlockList();
ipv6Loopback.addAddress('::1', 'ipv6');

export function isLoopbackHost(hostname: string): boolean {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost') return true;
  if (net.isIPv4(h)) return h.split('.')[0] === '127';
  if (net.isIPv6(h)) return ipv6Loopback.check(h, 'ipv6');
  return false;
}

/**
 * Parse a provider URL and apply C7 before anything touches the network: `http:` to a non-loopback host is
 * refused with InsecureTransportError (unless `requireTls` is false, for a host layer that decides itself);
 * an unparseable URL or a scheme other than http/https is an InvalidUrlError. Returns the parsed URL.
 */
export function checkProviderUrl(url: string | URL, requireTls = true): URL {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    throw new InvalidUrlError('not an absolute URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InvalidUrlError(`unsupported scheme "${u.protocol}" (http: or https: only)`);
  if (requireTls && u.protocol === 'http:' && !isLoopbackHost(u.hostname)) throw new InsecureTransportError(u.hostname);
  return u;
}

/**
 * The one way the server makes a request to an address a person gave it (today: Web Push endpoints),
 * docs/decisions/security-rules.md#hardening-third-round: https only, no redirects (node's request never
 * follows one), the host on a list of known services where one is given, and only public addresses, checked
 * on the address actually connected to (after DNS), so a name that resolves to loopback, a private,
 * link-local or any other special range is refused however it was spelled.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Public unicast only: ipaddr.js names every special range (loopback, private, link-local, ...). */
export function isPublicAddress(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
}

/** Whether a host is one of `hosts` (an entry with a leading dot admits its subdomains). */
export function hostAllowed(host: string, hosts: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return hosts.some((entry) => (entry.startsWith('.') ? name.endsWith(entry) : name === entry));
}

export class OutboundRefused extends Error {}

export interface OutboundPolicy {
  /** Known hosts of the service; empty: any public host. */
  hosts: readonly string[];
  /** Test only (refused in production): plain http to loopback, off the list. */
  localTestService: boolean;
}

/** Why a URL may not be asked, or null when it may (the address is checked again when connecting). */
export function outboundProblem(url: string, policy: OutboundPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.username || parsed.password) return 'credentials in the URL';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (
    policy.localTestService &&
    parsed.protocol === 'http:' &&
    ['127.0.0.1', 'localhost', '::1'].includes(host)
  )
    return null;
  if (parsed.protocol !== 'https:') return 'not https';
  if (isIP(host) !== 0 && !isPublicAddress(host)) return 'not a public address';
  if (policy.hosts.length > 0 && !hostAllowed(host, policy.hosts)) return 'not a known service';
  return null;
}

/** DNS as usual, then only the public answers; none left is an error before any connection. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
    if (allowed.length === 0)
      return callback(new OutboundRefused(`${hostname} has no public address`), '', 4);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
}

/**
 * Sends one request under the policy and answers the status; a redirect is answered as its status,
 * never followed. Throws OutboundRefused for an address the policy refuses, and network errors as they come.
 */
export function outboundRequest(
  url: string,
  request: OutboundRequest,
  policy: OutboundPolicy,
): Promise<number> {
  const problem = outboundProblem(url, policy);
  if (problem) return Promise.reject(new OutboundRefused(problem));
  const parsed = new URL(url);
  const local = parsed.protocol === 'http:';
  return new Promise((resolve, reject) => {
    const req = (local ? http : https).request(
      parsed,
      {
        method: request.method,
        headers: request.headers,
        // Loopback only in the test mode; everything else is resolved to public addresses only.
        ...(local ? {} : { lookup: publicLookup }),
        timeout: request.timeoutMs,
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * Outbound SSRF guard. A webhook may only reach public addresses unless the operator allows some
 * non-public kinds to test-key webhooks (WEBHOOK_PRIVATE_TARGETS: loopback, private, link-local;
 * off by default, since open sign-up would otherwise make the service a port scanner). The check runs on
 * the URL's addresses at registration and again on the address actually connected to at delivery,
 * so a DNS answer that changes later (rebinding) cannot reach inside either.
 *
 * Ranges come from ipaddr.js's classification rather than a hand-kept list. IPv6 forms that carry
 * an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo) are judged
 * by the IPv4 address inside them: `[::7f00:1]` or `[2002:7f00:1::]` reach 127.0.0.1 as surely
 * as `127.0.0.1` does.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import ipaddr from "ipaddr.js";
import { PRIVATE_TARGET_KINDS, type PrivateTargetKind } from "../config.ts";

export { PRIVATE_TARGET_KINDS, type PrivateTargetKind };

export type AddressKind = "public" | PrivateTargetKind | "reserved";
export type AllowedTargets = ReadonlySet<PrivateTargetKind>;

const IPV4_KINDS: Record<string, AddressKind> = {
  unicast: "public",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "private",
  linkLocal: "link-local",
};

const IPV6_KINDS: Record<string, AddressKind> = {
  unicast: "public",
  loopback: "loopback",
  uniqueLocal: "private",
  linkLocal: "link-local",
};

function ipv4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 address an IPv6 transition form delivers to, or null when the address is not such a form. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = address.parts;
  switch (address.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return [ipv4FromWords(p[6]!, p[7]!)];
    case "rfc6052":
      // 64:ff9b::/96 carries the IPv4 address in its last 32 bits; 64:ff9b:1::/48 is for local use only.
      return p[2] === 0 ? [ipv4FromWords(p[6]!, p[7]!)] : [new ipaddr.IPv4([0, 0, 0, 0])];
    case "6to4":
      return [ipv4FromWords(p[1]!, p[2]!)];
    case "teredo":
      // The server's address, and the client's with every bit inverted (RFC 4380 §4).
      return [ipv4FromWords(p[2]!, p[3]!), ipv4FromWords(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
    case "unicast":
      // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291 but still routed by some stacks).
      return p.slice(0, 6).every((word) => word === 0) ? [ipv4FromWords(p[6]!, p[7]!)] : null;
    default:
      return null;
  }
}

const SEVERITY: AddressKind[] = ["public", "loopback", "private", "link-local", "reserved"];
const worst = (kinds: AddressKind[]): AddressKind => kinds.reduce((a, b) => (SEVERITY.indexOf(b) > SEVERITY.indexOf(a) ? b : a), "public");

/** What kind of address this is; anything unparseable, multicast, documentation or otherwise special is "reserved". */
export function classifyAddress(text: string): AddressKind {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(text.replace(/^\[|\]$/g, ""));
  } catch {
    return "reserved";
  }
  if (address.kind() === "ipv4") return IPV4_KINDS[address.range()] ?? "reserved";
  const v6 = address as ipaddr.IPv6;
  const inner = embeddedIpv4(v6);
  if (inner) return worst(inner.map((v4) => IPV4_KINDS[v4.range()] ?? "reserved"));
  return IPV6_KINDS[v6.range()] ?? "reserved";
}

/** Live webhooks reach public addresses only, whatever the setting: it is for development and test receivers. */
export function allowedTargetsFor(env: "live" | "test", privateTargets: AllowedTargets): AllowedTargets {
  return env === "live" ? new Set() : privateTargets;
}

/** True when a webhook may connect to this address under the operator's setting. */
export function isAllowedAddress(address: string, allowed: AllowedTargets): boolean {
  const kind = classifyAddress(address);
  return kind === "public" || (kind !== "reserved" && allowed.has(kind));
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || (ipaddr.isValid(host) && classifyAddress(host) === "loopback");
}

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses addresses the setting does not allow. Node asks for one
 * address or, with happy eyeballs, for all of them; both forms are served.
 */
export function guardedLookup(allowed: AllowedTargets) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = addresses.find((a) => !isAllowedAddress(a.address, allowed));
      if (bad) return callback(Object.assign(new BlockedAddressError(hostname, bad.address), { code: "EBLOCKED" }), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

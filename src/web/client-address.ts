/**
 * The client's address, as the dashboard's throttles count it (docs/operations/README.md, "Behind
 * a proxy"). The socket's address, unless the socket comes from a proxy the operator trusts
 * (TRUSTED_PROXIES): then the client is the right-most address in `X-Forwarded-For` that is not a
 * trusted proxy. Addresses left of it were written by the client itself, so they are never read:
 * a client cannot pick the address it is counted under.
 */
import { BlockList, isIP } from "node:net";
import { getRequestIP, type H3Event } from "h3";

export type ClientAddress = (event: H3Event) => string;

/** `::ffff:10.0.0.1`, as a dual-stack socket reports an IPv4 peer, is 10.0.0.1. */
function plain(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function familyOf(address: string): "ipv4" | "ipv6" {
  return isIP(address) === 6 ? "ipv6" : "ipv4";
}

export function clientAddressReader(trustedProxies: readonly string[]): ClientAddress {
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = "", prefix] = entry.split("/");
    if (prefix === undefined) trusted.addAddress(address, familyOf(address));
    else trusted.addSubnet(address, Number(prefix), familyOf(address));
  }
  const isTrusted = (address: string) => isIP(address) !== 0 && trusted.check(address, familyOf(address));
  return (event) => {
    const socket = plain(getRequestIP(event) ?? "unknown");
    if (trustedProxies.length === 0 || !isTrusted(socket)) return socket;
    const forwarded = (event.req.headers.get("x-forwarded-for") ?? "").split(",").map((hop) => plain(hop.trim())).filter(Boolean);
    for (let i = forwarded.length - 1; i >= 0; i--) {
      if (!isTrusted(forwarded[i]!)) return forwarded[i]!;
    }
    return forwarded[0] ?? socket;
  };
}

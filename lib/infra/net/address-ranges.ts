import ipaddr from "ipaddr.js";

/**
 * What an outbound request may do with an address: `public` ones are reachable, `loopback` ones only
 * for local testing (UNSAFE_ALLOW_LOCAL_URLS), everything else never.
 */
export type AddressClass = "public" | "loopback" | "refused";

// Only the block IANA allocates for global unicast: the rest of the IPv6 space ipaddr.js calls
// `unicast` is unassigned, or the deprecated IPv4-compatible ::/96 that would carry any v4 address.
const globalUnicastV6 = ipaddr.parseCIDR("2000::/3");
// NAT64's well-known prefix translates to the public v4 address it embeds; the local-use prefix
// 64:ff9b:1::/48 (RFC 8215) belongs to someone's own network and is refused.
const nat64WellKnown = ipaddr.parseCIDR("64:ff9b::/96");

/** The class of an address as DNS or the URL parser gives it (dotted IPv4 or IPv6 without brackets). */
export function classifyAddress(text: string): AddressClass {
  if (!ipaddr.isValid(text)) return "refused";
  const address = ipaddr.parse(text);
  return address.kind() === "ipv4" ? classifyV4(address as ipaddr.IPv4) : classifyV6(address as ipaddr.IPv6);
}

// ipaddr.js names every special-purpose range (private, CGNAT, link-local, multicast, broadcast,
// documentation, benchmarking, reserved, …); only what it leaves as plain `unicast` is public.
function classifyV4(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  if (range === "unicast") return "public";
  return range === "loopback" ? "loopback" : "refused";
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  switch (address.range()) {
    case "unicast":
      return address.match(globalUnicastV6) ? "public" : "refused";
    case "loopback":
      return "loopback";
    // These reach the v4 address they carry, so they are what that address is.
    case "ipv4Mapped":
    case "rfc6145":
      return classifyV4(embeddedV4(address, 6));
    case "rfc6052":
      return address.match(nat64WellKnown) ? classifyV4(embeddedV4(address, 6)) : "refused";
    case "6to4":
      return classifyV4(embeddedV4(address, 1));
    // Teredo among the rest: its tunnels end wherever the obfuscated client address says, and no
    // receiver lives behind one, so it is refused whole rather than decoded.
    default:
      return "refused";
  }
}

/** The IPv4 address held in two 16-bit groups of an IPv6 address, starting at group `first`. */
function embeddedV4(address: ipaddr.IPv6, first: number): ipaddr.IPv4 {
  const [high, low] = address.parts.slice(first, first + 2);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

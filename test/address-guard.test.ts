import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { classifyAddress, isAllowedAddress } from "../src/webhooks/address-guard.ts";
import { postJson } from "../src/webhooks/post.ts";

describe("webhook address guard: an IPv6 form carrying an IPv4 address is judged by that IPv4 address", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "reserved"],
    ["224.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "reserved"],
    ["fd00::1", "private"],
    ["fe80::1", "link-local"],
    ["ff02::1", "reserved"],
    ["2001:db8::1", "reserved"],
    // IPv4-mapped and IPv4-translated
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:0:a00:1", "private"],
    // IPv4-compatible
    ["::7f00:1", "loopback"],
    ["::127.0.0.1", "loopback"],
    ["::a9fe:a9fe", "link-local"],
    // 6to4
    ["2002:7f00:1::", "loopback"],
    ["2002:a00:1::1", "private"],
    ["2002:a9fe:a9fe::", "link-local"],
    // NAT64: the well-known prefix carries the IPv4 address; the local-use prefix is never public
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b:1::808:808", "reserved"],
    // Teredo: the client address is stored with every bit inverted (127.0.0.1 → 80ff:fffe)
    ["2001:0:4136:e378:8000:0:80ff:fffe", "loopback"],
    ["2001:0:4136:e378:8000:0:f5ff:fffe", "private"],
    // public addresses, plain and embedded
    ["93.184.216.34", "public"],
    ["2606:4700:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["2002:808:808::1", "public"],
    ["64:ff9b::8.8.8.8", "public"],
    ["2001:0:4136:e378:8000:0:f7f7:f7f7", "public"],
    ["not an address", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("only public addresses pass when nothing is allowed; an allowed kind opens that kind alone, never reserved ones", () => {
    expect(isAllowedAddress("2002:7f00:1::", new Set())).toBe(false);
    expect(isAllowedAddress("2002:7f00:1::", new Set(["loopback"]))).toBe(true);
    expect(isAllowedAddress("::a00:1", new Set(["loopback"]))).toBe(false);
    expect(isAllowedAddress("0.0.0.0", new Set(["loopback", "private", "link-local"]))).toBe(false);
  });

  it.each(["https://[::7f00:1]:9/hooks", "https://[2002:7f00:1::]:9/hooks", "https://[64:ff9b::7f00:1]:9/", "https://[2001:0:4136:e378:8000:0:80ff:fffe]:9/"])(
    "delivery refuses %s before connecting when only public targets are allowed",
    async (url) => {
      const result = await postJson(url, "{}", {}, { timeoutMs: 2000, allowed: new Set() });
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/^refused: .* is not a public address$/);
    },
  );
});

describe("a refused or failed connection is logged to the customer without revealing what answered", () => {
  it("a closed port and a port that accepts then resets read the same in the delivery log; the code goes to the operator only", async () => {
    // A real listener that accepts and drops every connection (ECONNRESET), and a port nothing listens on (ECONNREFUSED).
    const resetting = createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => resetting.listen(0, "127.0.0.1", resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    try {
      const options = { timeoutMs: 2000, allowed: new Set(["loopback"] as const) };
      const reset = await postJson(`http://127.0.0.1:${(resetting.address() as AddressInfo).port}/`, "{}", {}, options);
      const refused = await postJson(`http://127.0.0.1:${closedPort}/`, "{}", {}, options);
      expect(reset.cause).toMatch(/ECONNRESET/);
      expect(refused.cause).toMatch(/ECONNREFUSED/);
      expect(reset.error).toBe(refused.error);
      expect(reset.error).toBe("connection failed before an HTTP answer");
    } finally {
      await new Promise((resolve) => resetting.close(resolve));
    }
  });
});

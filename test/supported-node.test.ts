/** The start-up version check (src/supported-node.ts): pure, so it is tested on any Node. */
import { describe, expect, it } from "vitest";
import { unsupportedNodeMessage } from "../src/supported-node.ts";

describe("Node version check: Buckeye runs on Node 22.12 or later (22 and 24 tested)", () => {
  it("accepts Node 22.12, 22.23, 24 and later majors", () => {
    for (const version of ["22.12.0", "22.23.3", "24.21.0", "26.1.0"]) expect(unsupportedNodeMessage(version)).toBeUndefined();
  });

  it("refuses Node 20 and 22.11 with a message naming the supported versions and how to get one", () => {
    for (const version of ["20.20.2", "22.11.0", "18.20.8"]) {
      const message = unsupportedNodeMessage(version);
      expect(message).toContain(`this is Node.js v${version}`);
      expect(message).toContain("Node.js 22 or 24");
      expect(message).toContain("bash scripts/fetch-node.sh 24");
    }
  });
});

import { describe, expect, it } from "vitest";
import { demoNetwork } from "../../src/domain/demo/demo-network";

describe("the network a demo caller is counted in", () => {
  it.each([
    ["192.0.2.7", "192.0.2.7"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["::FFFF:c000:0207", "192.0.2.7"],
    ["0:0:0:0:0:ffff:192.0.2.7", "192.0.2.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:0:0:9", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:3:4:192.0.2.7", "2001:db8:1:2::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["unknown", "unknown"],
    ["2001:db8::1::2", "2001:db8::1::2"],
    ["2001:db8:1:2:3:4:5:6:7", "2001:db8:1:2:3:4:5:6:7"],
    ["192.0.2.256", "192.0.2.256"],
  ])("counts %s as %s", (ip, network) => {
    expect(demoNetwork(ip)).toBe(network);
  });
});

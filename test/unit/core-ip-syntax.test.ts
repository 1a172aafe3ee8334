import { expect, test } from "bun:test";
import { isIP } from "node:net";
import { parseIp } from "../../lib/access/client-ip.ts";

test("the client-IP parser accepts exactly the addresses node:net's isIP accepts", () => {
  const cases = [
    "::",
    "::1",
    "1::",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "1::2::3",
    ":1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:",
    "::ffff:1.2.3.4",
    "::ffff:1.2.3",
    "::1.2.3.4",
    "1:2:3:4:5:6:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4",
    "12345::1",
    "g::1",
    "1.2.3.4",
    "fe80::1",
    "2001:db8::",
    "2001:db8:::1",
    "1:2:3:4:5::6:7:8",
    "::1.2.3.4.5",
    "1.2.3.4::",
    "::ffff:256.1.1.1",
    "0:0:0:0:0:0:0:0",
    ":",
    "",
    "abcd:ef01:2345:6789:abcd:ef01:2345:6789",
    "1:2:3:4:5:6::7:8",
    "ABCD::EF",
    "1:2:3:4:5:6:7::",
    "::2:3:4:5:6:7:8",
    "1.2.3.4.5",
    "256.0.0.1",
    "1.2.3",
    "x",
  ];
  for (const text of cases) expect(parseIp(text) !== null, JSON.stringify(text)).toBe(isIP(text) !== 0);
});

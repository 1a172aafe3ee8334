// Child of the benchmark (run with node): autocannon through its API, cycling through the request paths in
// a file and, with "bust", appending a distinct `_=N` to every request. Prints one JSON line of figures.
//   node bench/load-autocannon.mjs URL PATHS_FILE CONNECTIONS SECONDS [bust|same] [AMOUNT]
// With AMOUNT, the run ends after that many requests instead of after SECONDS (the quick mode's way of
// being sure every endpoint answered, however busy the machine is).
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

const [url, pathsFile, connections, seconds, mode, amount] = process.argv.slice(2);
const paths = readFileSync(pathsFile, "utf8").split("\n").filter(Boolean);
let i = 0;
let counter = 0;
const result = await autocannon({
  url,
  connections: Number(connections),
  ...(amount ? { amount: Number(amount), timeout: 30 } : { duration: Number(seconds) }),
  requests: [
    {
      setupRequest(req) {
        let path = paths[i++ % paths.length];
        if (mode === "bust") path += `${path.includes("?") ? "&" : "?"}_=${++counter}`;
        return { ...req, path };
      },
    },
  ],
});
const codes = {};
for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) codes[code] = s.count;
process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.total,
    duration_us: Math.round(result.duration * 1e6),
    bytes: result.throughput.total,
    errors: { connect: result.errors, status: result.non2xx, timeout: result.timeouts },
    status_codes: codes,
    latency_us: {
      p50: result.latency.p50 * 1000,
      p90: result.latency.p90 * 1000,
      p99: result.latency.p99 * 1000,
      max: result.latency.max * 1000,
      mean: result.latency.average * 1000,
    },
  })}\n`,
);

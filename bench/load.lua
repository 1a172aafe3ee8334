-- wrk script of the benchmark: cycles through the request paths in a file (one per line) and, when
-- BUST is set, appends a distinct `_=N` to every request so no cache can answer it. With FROM, every request
-- also carries `X-Forwarded-For` with an address of its own, the FROM-th of 10.0.0.0/8 and on (a client
-- each, for a server that trusts the loopback as its proxy). Prints one JSON line of figures at the end.
--   wrk -t1 -c32 -d6s -s bench/load.lua http://127.0.0.1:PORT -- PATHS_FILE [bust|same] [FROM]
local paths = {}
local n, i, counter, bust = 0, 0, 0, false
local from, sent = nil, 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then
      n = n + 1
      paths[n] = line
    end
  end
  bust = args[2] == "bust"
  from = tonumber(args[3])
end

function request()
  i = i % n + 1
  local path = paths[i]
  if bust then
    counter = counter + 1
    local sep = "?"
    if string.find(path, "?", 1, true) then sep = "&" end
    path = path .. sep .. "_=" .. counter
  end
  if from then
    local a = (from + sent) % 16777216
    sent = sent + 1
    local ip = "10." .. math.floor(a / 65536) .. "." .. (math.floor(a / 256) % 256) .. "." .. (a % 256)
    return wrk.format("GET", path, { ["X-Forwarded-For"] = ip })
  end
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end

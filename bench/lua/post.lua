-- wrk script for benchmark (b): POSTs as a signed-in customer with CSRF.
-- BENCH_IDS: a file of "public_id digest" lines; each wrk thread takes its own
-- stripe and confirms each proposal once (POST /proposals/<id>/confirm). With
-- BENCH_PATH set, every request goes there instead (the bare view), with the
-- same headers and a body of the same size. With BENCH_BODY=dispute, the body is
-- the line's transaction and amount (the unguarded endpoint: BENCH_IDS then lists
-- "reference amount" lines, each transaction disputed once).
local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  local session = os.getenv("BENCH_SESSION")
  local csrf = string.rep("s", 32)
  port = os.getenv("BENCH_PORT")
  fixed_path = os.getenv("BENCH_PATH")
  dispute_body = os.getenv("BENCH_BODY") == "dispute"
  nthreads = tonumber(os.getenv("BENCH_THREADS"))
  headers = {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = "sessionid=" .. session .. "; csrftoken=" .. csrf,
    ["X-CSRFToken"] = csrf,
    ["HX-Request"] = "true",
    ["Referer"] = "http://127.0.0.1:" .. port .. "/",
  }
  items = {}
  local n = 0
  for line in io.lines(os.getenv("BENCH_IDS")) do
    if n % nthreads == id then
      local pid, digest = line:match("(%S+) (%S+)")
      table.insert(items, {pid, digest})
    end
    n = n + 1
  end
  index = 0
end

function request()
  index = index + 1
  local item = items[((index - 1) % #items) + 1]
  local path = fixed_path or ("/proposals/" .. item[1] .. "/confirm")
  local body = "digest=" .. item[2]
  if dispute_body then
    body = "transaction=" .. item[1] .. "&amount=" .. item[2] .. "&reason=not_recognised"
  end
  return wrk.format("POST", path, headers, body)
end

function done(summary, latency, requests)
  io.write(string.format("BENCH {\"requests\": %d, \"seconds\": %.3f, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"errors_status\": %d, \"errors_other\": %d}\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end

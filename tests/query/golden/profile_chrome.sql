-- shared: chrome/v8_runtime_call_stats.json
-- the deepest call paths of V8's runtime, and the functions most unevenly spread over the threads
SELECT depth, path, calls, inclusive_ns, exclusive_ns FROM call_tree() ORDER BY depth DESC, inclusive_ns DESC, path LIMIT 6;
SELECT function, containers, inclusive_max_ns, round(imbalance, 6) AS imbalance FROM profile_total() WHERE containers > 1 ORDER BY imbalance DESC, function LIMIT 6;
SELECT container, function, calls, exclusive_ns FROM profile(NULL, NULL, 'CrRendererMain') ORDER BY exclusive_ns DESC, function LIMIT 5;

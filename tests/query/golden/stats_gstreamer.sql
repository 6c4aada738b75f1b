-- trace: examples/gstreamer-stressed.store
SELECT * FROM stats() ORDER BY kind, type, value;
SELECT w.value, w.count, w.total_time AS window_ns, round(w.share, 3) AS window_share, round(a.share, 3) AS trace_share
  FROM stats(2000000000, 3000000000) w JOIN stats() a ON a.kind = w.kind AND a.type = w.type AND a.value = w.value
  WHERE w.kind = 'state' ORDER BY w.value;

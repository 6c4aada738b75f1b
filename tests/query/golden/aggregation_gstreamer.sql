-- trace: examples/gstreamer-stressed.store
SELECT * FROM aggregation() ORDER BY start_slice;
SELECT a.start_slice, a.end_slice, round(a.start_slice * (i."end" - i.start) / 1e11, 3) AS from_s,
  round((a.end_slice + 1) * (i."end" - i.start) / 1e11, 3) AS to_s, round(a.gain / 1e9, 3) AS gain_g, round(a.loss / 1e6, 3) AS loss_m
  FROM aggregation(0.02) a, trace_info i ORDER BY 1;
SELECT * FROM aggregation(0.02, 20, 'spatiotemporal') ORDER BY start_slice, node;

-- trace: examples/gstreamer-stressed.store
SELECT container, CAST(start_ns / 1000000000 AS INTEGER) AS second, sum(measure_ns > upper_ns) AS longer,
  sum(measure_ns < lower_ns) AS shorter, max(measure_ns) AS longest_ns
  FROM anomalies('Level=LOG') GROUP BY 1, 2 ORDER BY 1, 2;
SELECT * FROM anomalies('Level=LOG') ORDER BY measure_ns DESC LIMIT 5;
SELECT count(*) AS anomalies, min(measure_ns) AS shortest_ns, max(measure_ns) AS longest_ns
  FROM anomalies('Message=GST_BUFFER', 'interarrival');

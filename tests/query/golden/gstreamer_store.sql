-- trace: examples/gstreamer-stressed.store
SELECT * FROM trace_info;
SELECT c.name AS thread, s.value AS element, count(*) AS calls, sum(s.dur_ns) AS ns, max(s.dur_ns) AS longest_ns
  FROM states s JOIN containers c ON c.id = s.container GROUP BY 1, 2 ORDER BY ns DESC LIMIT 10;
SELECT type, value, count(*) AS n FROM events GROUP BY 1, 2 ORDER BY n DESC, 2 LIMIT 5;

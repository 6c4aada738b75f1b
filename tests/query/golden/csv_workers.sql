-- trace: tests/query/data/workers.csv
SELECT * FROM trace_info;
SELECT * FROM containers ORDER BY id;
SELECT p.name AS node, c.name AS worker, s.value, count(*) AS n, sum(s.dur_ns) / 1e6 AS ms,
  round(100.0 * sum(s.dur) / (i."end" - i.start), 1) AS share
  FROM states s JOIN containers c ON c.id = s.container JOIN containers p ON p.id = c.parent, trace_info i
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT c.name AS worker, e.ts_ns / 1e6 AS checkpoint_ms, e.ts_ns - min(e.ts_ns) OVER () AS behind_first_ns
  FROM events e JOIN containers c ON c.id = e.container WHERE e.value = 'checkpoint' ORDER BY e.ts, 1;
SELECT c.name AS worker, v.type, count(*) AS n, min(v.value) AS low, max(v.value) AS high, max(v.ts_ns) / 1e6 AS last_ms
  FROM variables v JOIN containers c ON c.id = v.container GROUP BY 1, 2 ORDER BY 1, 2;

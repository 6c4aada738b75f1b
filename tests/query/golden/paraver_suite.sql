-- trace: tests/query/data/suite.prv
SELECT * FROM trace_info;
SELECT * FROM types ORDER BY id;
SELECT c.path AS thread, s.value AS state, count(*) AS n, sum(s.dur_ns) AS ns, max(s.depth) AS deepest
  FROM states s JOIN containers c ON c.id = s.container GROUP BY 1, 2 ORDER BY 1, 2;
SELECT c.name AS thread, e.type, e.value, e.ts_ns FROM events e JOIN containers c ON c.id = e.container
  ORDER BY e.ts, e.id;
SELECT a.name AS sender, b.name AS receiver, l.ts_ns, l.dur_ns, l.key AS tag,
  (SELECT value FROM args WHERE entity = l.id AND key = 'size') AS bytes
  FROM links l JOIN containers a ON a.id = l.src JOIN containers b ON b.id = l.dst ORDER BY l.ts, l.id;

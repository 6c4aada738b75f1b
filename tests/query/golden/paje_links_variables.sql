-- trace: tests/store/data/gen.trace
SELECT * FROM links ORDER BY id;
SELECT c.path, v.type, count(*) AS n, min(v.value) AS low, max(v.value) AS high
  FROM variables v JOIN containers c ON c.id = v.container GROUP BY 1, 2 ORDER BY 1, 2;
SELECT * FROM variables WHERE ts >= 100 AND ts < 120 ORDER BY ts, id;

-- trace: fuzz/corpus/gstreamer/plain.log
SELECT * FROM trace_info;
SELECT * FROM containers ORDER BY id;
SELECT value AS level, count(*) AS n, sum(dur_ns) AS ns FROM states GROUP BY 1 ORDER BY 1;
SELECT e.value AS category, l.value AS level, count(*) AS messages, min(e.ts_ns) AS first_ns
  FROM events e JOIN args l ON l.entity = e.id AND l.key = 'level' GROUP BY 1, 2 ORDER BY messages DESC, 1, 2;
SELECT f.value AS file, count(*) AS messages FROM events e JOIN args f ON f.entity = e.id AND f.key = 'file'
  GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5;

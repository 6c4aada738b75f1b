-- trace: fuzz/corpus/ftrace/seed-v6-sched.dat
SELECT * FROM trace_info;
SELECT c.name AS cpu, count(*) AS switches_in, count(DISTINCT s.value) AS commands, sum(s.dur_ns) AS busy_ns
  FROM states s JOIN containers c ON c.id = s.container WHERE s.type = 'CPU' AND s.value <> 'idle'
  GROUP BY 1 ORDER BY 1;
SELECT c.name AS cpu, s.value AS command, count(*) AS slices, sum(s.dur_ns) AS ns
  FROM states s JOIN containers c ON c.id = s.container WHERE s.type = 'CPU' GROUP BY 1, 2 ORDER BY 1, ns DESC, 2;
SELECT c.name AS cpu, e.type, count(*) AS n FROM events e JOIN containers c ON c.id = e.container
  GROUP BY 1, 2 ORDER BY 1, 2;
SELECT c.name AS thread, s.value AS state, count(*) AS n, sum(s.dur_ns) AS ns
  FROM states s JOIN containers c ON c.id = s.container WHERE s.type = 'Thread' GROUP BY 1, 2 ORDER BY ns DESC, 1, 2 LIMIT 10;

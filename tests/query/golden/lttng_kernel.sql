-- shared: ctf/bug446190
SELECT * FROM trace_info;
SELECT c.name AS cpu, count(*) AS events, count(DISTINCT e.type) AS names FROM events e
  JOIN containers c ON c.id = e.container GROUP BY 1 ORDER BY 1;
SELECT e.type, count(*) AS n FROM events e GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10;
SELECT p.name AS process, s.value AS syscall, count(*) AS calls, sum(s.dur_ns) AS ns
  FROM states s JOIN containers c ON c.id = s.container JOIN containers p ON p.id = c.parent
  WHERE s.type = 'Syscall' GROUP BY 1, 2 ORDER BY ns DESC, 1, 2 LIMIT 10;
SELECT c.name AS cpu, s.value AS interrupt, count(*) AS n, sum(s.dur_ns) AS ns, max(s.dur_ns) AS longest_ns
  FROM states s JOIN containers c ON c.id = s.container WHERE s.type = 'Interrupt'
  GROUP BY 1, 2 ORDER BY 1, ns DESC, 2;

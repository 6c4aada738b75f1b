-- shared: otf2/ping-pong-otf2/traces.otf2
SELECT * FROM trace_info;
SELECT * FROM containers ORDER BY id;
SELECT c.path AS location, s.value AS region, count(*) AS calls, sum(s.dur_ns) AS ns
  FROM states s JOIN containers c ON c.id = s.container GROUP BY 1, 2 ORDER BY 1, 2;
SELECT a.path AS src, b.path AS dst, count(*) AS messages, min(l.dur_ns) AS fastest_ns, max(l.dur_ns) AS slowest_ns
  FROM links l JOIN containers a ON a.id = l.src JOIN containers b ON b.id = l.dst GROUP BY 1, 2 ORDER BY 1, 2;
SELECT * FROM states WHERE value = 'MPI_Recv' ORDER BY dur DESC LIMIT 3;

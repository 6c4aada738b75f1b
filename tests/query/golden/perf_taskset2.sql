-- shared: ctf/perf-taskset2
SELECT * FROM trace_info;
SELECT c.name AS cpu, a.value AS command, e.type, count(*) AS samples
  FROM events e JOIN containers c ON c.id = e.container JOIN args a ON a.entity = e.id AND a.key = 'comm'
  GROUP BY 1, 2, 3 ORDER BY 1, samples DESC, 2, 3;
SELECT a.value AS command, count(*) AS samples, sum(CAST(r.value AS INTEGER)) AS runtime_ns
  FROM events e JOIN args a ON a.entity = e.id AND a.key = 'comm' JOIN args r ON r.entity = e.id AND r.key = 'runtime'
  WHERE e.type = 'sched:sched_stat_runtime' GROUP BY 1 ORDER BY runtime_ns DESC, 1;
SELECT c.name AS cpu, s.value AS command, count(*) AS slices, sum(s.dur_ns) AS ns
  FROM states s JOIN containers c ON c.id = s.container WHERE s.type = 'CPU' GROUP BY 1, 2 ORDER BY 1, ns DESC, 2 LIMIT 12;

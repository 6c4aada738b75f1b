-- trace: fuzz/corpus/ftrace/seed-v6-sched.dat
SELECT * FROM kernel_processes() ORDER BY running_ns DESC, pid, tid LIMIT 12;
SELECT name, count(*) AS threads, sum(running_ns) AS running_ns, sum(waiting_ns) AS waiting_ns
  FROM kernel_processes() GROUP BY 1 ORDER BY running_ns DESC, 1 LIMIT 8;

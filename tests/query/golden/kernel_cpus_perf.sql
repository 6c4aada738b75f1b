-- shared: ctf/perf-taskset2
SELECT * FROM kernel_cpus() ORDER BY cpu, ns DESC LIMIT 20;
SELECT cpu, sum(ns) AS ns FROM kernel_cpus() GROUP BY 1 ORDER BY 1;

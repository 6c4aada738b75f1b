-- trace: fuzz/corpus/ftrace/seed-v6-sched.dat
SELECT * FROM kernel_latency('sched') ORDER BY max_ns DESC, id LIMIT 8;
SELECT * FROM kernel_latency_histogram('sched', 5);
SELECT * FROM kernel_latency('syscall');

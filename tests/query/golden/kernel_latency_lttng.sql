-- shared: ctf/bug446190
SELECT * FROM kernel_latency('syscall') ORDER BY count DESC, name LIMIT 10;
SELECT * FROM kernel_latency('irq');
SELECT * FROM kernel_latency('sched') ORDER BY count DESC, id LIMIT 10;
SELECT * FROM kernel_latency_histogram('syscall', 10, 'ioctl');
SELECT kind, sum(count) AS handlers, max(max_ns) AS longest_ns FROM kernel_latency('irq') GROUP BY kind;

-- trace: tests/query/data/alloc-section
SELECT * FROM trace_info;
SELECT * FROM kernel_memory() ORDER BY pid IS NULL, pid;
SELECT e.type, count(*) AS calls, sum(CAST(s.value AS INTEGER)) AS bytes_asked
  FROM events e LEFT JOIN args s ON s.entity = e.id AND s.key = 'size'
  WHERE e.type LIKE 'lttng_ust_libc:%' GROUP BY 1 ORDER BY 1;

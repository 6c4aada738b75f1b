-- shared: ctf/mpi_allreduce
SELECT * FROM trace_info;
SELECT type, count(*) AS n FROM events GROUP BY 1 ORDER BY n DESC, type;
SELECT e.id, e.type, e.ts_ns, a.key, a.value FROM events e JOIN args a ON a.entity = e.id ORDER BY e.ts, e.id, a.key LIMIT 12;

-- shared: ctf/bug446190
SELECT * FROM thread_critical_path(525);
SELECT state, detail, count(*) AS segments, sum(length_ns) AS length_ns FROM thread_critical_path(403) GROUP BY state, detail ORDER BY state, detail;
SELECT * FROM thread_critical_path_by(338, 'state');
SELECT * FROM thread_critical_path_by(482, 'container');
SELECT * FROM thread_critical_path(403, (SELECT start FROM trace_info) + 1995000000) WHERE "end" > 1990000000;

-- shared: otf2/ping-pong-otf2/traces.otf2
SELECT container, count(*) AS segments, sum(length_ns) AS length_ns FROM critical_path() GROUP BY container ORDER BY container;
SELECT * FROM critical_path() WHERE function = 'MPI_Recv' ORDER BY start LIMIT 4;
SELECT * FROM critical_path_by('function');
SELECT * FROM critical_path_by('container');

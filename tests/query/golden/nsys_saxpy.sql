-- shared: nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
SELECT * FROM trace_info;
SELECT type, count(*) AS n, sum(dur_ns) AS ns FROM states GROUP BY 1 ORDER BY ns DESC, 1;
SELECT value, count(*) AS n, sum(dur_ns) AS ns FROM states WHERE type LIKE '%kernel%' GROUP BY 1 ORDER BY ns DESC LIMIT 5;

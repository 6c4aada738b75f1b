-- shared: nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
-- where a CUDA program spends its time, host threads and GPU streams alike
SELECT * FROM profile() ORDER BY container, exclusive_ns DESC, function;
SELECT function, calls, containers, inclusive_ns, exclusive_ns FROM profile_total() ORDER BY exclusive_ns DESC, function LIMIT 8;
SELECT depth, path, calls, inclusive_ns FROM call_tree() WHERE depth > 0 ORDER BY inclusive_ns DESC, path LIMIT 5;

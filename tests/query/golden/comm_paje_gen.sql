-- trace: tests/store/data/gen.trace
SELECT * FROM comm();
SELECT * FROM comm(1);
SELECT * FROM comm_histogram();
SELECT * FROM comm_over_time(4, 100, 250.5);

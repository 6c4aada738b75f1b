-- shared: otf2/ping-pong-otf2/traces.otf2
SELECT * FROM comm();
SELECT * FROM comm(3);
SELECT * FROM comm(1, 7397467380000000, 7397467390000000);
SELECT * FROM comm_histogram(5);
SELECT * FROM comm_over_time(8);
SELECT sum(messages) AS messages, sum(bytes) AS bytes FROM comm_over_time(1000);

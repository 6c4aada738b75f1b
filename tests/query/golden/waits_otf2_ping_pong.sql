-- shared: otf2/ping-pong-otf2/traces.otf2
SELECT * FROM wait_states();
SELECT * FROM idle_time();

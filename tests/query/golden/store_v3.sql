-- trace: tests/store/data/gen.v3.mstore
SELECT type, value, count(*) AS n, sum(dur) AS time, max(depth) AS deepest FROM states GROUP BY 1, 2 ORDER BY 1, 2;
SELECT type, count(*) AS n FROM events GROUP BY 1;
SELECT * FROM states WHERE ts < 60 AND "end" > 50 AND type = 'Nested' ORDER BY id;

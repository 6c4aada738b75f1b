-- trace: tests/store/data/fields.trace
SELECT * FROM states ORDER BY id;
SELECT * FROM events ORDER BY id;
SELECT * FROM args ORDER BY entity, key;
SELECT s.value, a.value AS reason FROM states s JOIN args a ON a.entity = s.id AND a.key = 'Reason' ORDER BY s.ts;

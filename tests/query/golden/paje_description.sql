-- trace: tests/store/data/fields.trace
SELECT * FROM trace_info;
SELECT * FROM types ORDER BY id;
SELECT * FROM containers ORDER BY id;

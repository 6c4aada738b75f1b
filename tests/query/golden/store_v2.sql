-- trace: tests/store/data/fields.v2.mstore
SELECT * FROM args ORDER BY entity, key;

-- shared: chrome/flow.json
SELECT * FROM trace_info;
SELECT * FROM states ORDER BY id;
SELECT * FROM links ORDER BY id;

-- trace: examples/gstreamer-stressed.store
SELECT * FROM plist(20) ORDER BY p;
SELECT count(*) AS significant, max(parts) AS finest, min(parts) AS coarsest FROM plist();
SELECT * FROM plist(10, 'spatiotemporal', 1500000000, 3500000000) ORDER BY p;

-- trace: examples/gstreamer-stressed.store
SELECT count(*) AS phases, sum(points) AS messages, sum(size) AS integers, sum(kind = 'loop') AS loops
  FROM loops('0x55c78197c400', 'Message', 'value');
SELECT phase, first, last, kind, points, period, intervals, depth, exceptions, size, unit
  FROM loops('0x55c78197c400', 'Message', 'value') ORDER BY points DESC, phase LIMIT 5;
SELECT phase, nest FROM loops('0x55c78197c400', 'Message', 'value') ORDER BY points DESC, phase LIMIT 1;

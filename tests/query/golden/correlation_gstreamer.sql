-- trace: examples/gstreamer-stressed.store
SELECT * FROM correlation('Message=jpegdec', 'Message=GST_BUFFER');
SELECT * FROM correlation('Message=jpegdec', 'Message=GST_BUFFER', 5000000);
SELECT * FROM correlation('Level=LOG', 'Message=basesink');

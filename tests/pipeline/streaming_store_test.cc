// Streaming a store (store::ReadStore with a sink): store by store, in
// chunks, the entities of the model that was saved, in store order, user
// fields included; the trace keeps none of them.
#include "store/store.h"
#include "streaming_test_support.h"

namespace macroscope::streaming_test {
namespace {

// A store of `trace_file`, read in memory first.
std::string WriteStoreOf(const std::string& trace_file, const std::string& dir) {
  Trace trace;
  formats::ReadStats stats = formats::ReadTrace({trace_file}, {}, trace);
  const std::string path = dir + "/trace.mstore";
  store::WriteStore(trace, {.events = stats.events, .bytes = stats.bytes}, path);
  return path;
}

TEST(StreamingStore, UserFieldsTraceGivesTheModelsEntities) {
  TempDir dir;
  const std::string path =
      WriteStoreOf(std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/traces/user_fields.trace", dir.path());
  EXPECT_GT(ExpectStreamedEqualsModel({path}, formats::ReadOptions{}), 5u);
}

// More entities per store than a chunk: the chunks follow one another and
// the delta-coded columns carry over.
TEST(StreamingStore, StoresLargerThanAChunkGiveTheModelsEntities) {
  TempDir dir;
  const std::string trace_file = GenerateFullTrace(dir.path(), 1, 2, 300000);
  const std::string path = WriteStoreOf(trace_file, dir.path());

  RecordingSink sink;
  sink.check_every = 1;
  formats::ReadOptions read;
  read.sink = &sink;
  Trace streamed;
  formats::ReadTrace({path}, read, streamed);
  EXPECT_LE(sink.max_held, 65536u) << "one chunk at a time";
  EXPECT_GT(ExpectStreamedEqualsModel({path}, formats::ReadOptions{}), 200000u);
}

}  // namespace
}  // namespace macroscope::streaming_test

// write-store: the entities it reads as a store (docs/store.md), with the
// source trace's types, containers and declared values
// (trace_rebuilding.h), written at the end of the stream atomically.
#include "pipeline/modules/file_writer.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "store/store.h"

namespace macroscope::pipeline {

namespace {

class WriteStore : public TraceWriter {
 public:
  WriteStore(const std::string& name, std::string path)
      : TraceWriter(name, std::move(path), "write-store", "a store") {}

 protected:
  void Write(TraceRebuilder& rebuilder) override {
    // The store's record of what was read: here, the entities written.
    const store::StoreStats stats{.events = rebuilder.entities(), .bytes = 0};
    store::WriteStore(*rebuilder.Build(), stats, path_);
  }
};

}  // namespace

ModuleInfo WriteStoreModule() {
  return {
      .kind = "write-store",
      .description = "Writes the entities of one trace as a store (memory grows with the entities)",
      .params = {{"path", "the store file", true}},
      .inputs = {{"in", "entities", "entities of one trace"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(WriteStoreModule());
        return std::make_unique<WriteStore>(name, OutputPath(params));
      },
  };
}

}  // namespace macroscope::pipeline

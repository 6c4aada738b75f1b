// write-paje: the entities it reads as a Pajé trace, with the source
// trace's types, containers and declared values (trace_rebuilding.h),
// written at the end of the stream through a temporary file.
#include "formats/paje/paje_writer.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/modules/trace_rebuilding.h"

namespace macroscope::pipeline {

namespace {

class WritePaje : public Module {
 public:
  WritePaje(const std::string& name, std::string path) : Module(name), path_(std::move(path)) {
    in_ = &AddInput<EntityBatch>("in");
  }

  void Run() override {
    TraceRebuilder rebuilder("write-paje", "a Pajé file");
    while (const EntityBatch* batch = in_->Next()) rebuilder.Add(*batch);
    paje::WritePajeFile(*rebuilder.Build(), path_);
    RecordWritten(path_);
  }

 private:
  std::string path_;
  Input<EntityBatch>* in_;
};

}  // namespace

ModuleInfo WritePajeModule() {
  return {
      .kind = "write-paje",
      .description = "Writes the entities of one trace as a Pajé trace (memory grows with the entities)",
      .params = {{"path", "the Pajé file", true}},
      .inputs = {{"in", "entities", "entities of one trace"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(WritePajeModule());
        return std::make_unique<WritePaje>(name, OutputPath(params));
      },
  };
}

}  // namespace macroscope::pipeline

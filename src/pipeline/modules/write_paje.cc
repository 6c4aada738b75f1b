// write-paje: the entities it reads as a Pajé trace, with the source
// trace's types, containers and declared values (trace_rebuilding.h),
// written at the end of the stream through a temporary file.
#include "formats/paje/paje_writer.h"
#include "pipeline/modules/file_writer.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"

namespace macroscope::pipeline {

namespace {

class WritePaje : public TraceWriter {
 public:
  WritePaje(const std::string& name, std::string path)
      : TraceWriter(name, std::move(path), "write-paje", "a Pajé file") {}

 protected:
  void Write(TraceRebuilder& rebuilder) override { paje::WritePajeFile(*rebuilder.Build(), path_); }
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

#include "formats/nsys/nsys_format.h"

#include "formats/nsys/nsys_reader.h"
#include "formats/nsys/nsys_schema.h"

namespace macroscope::nsys {

namespace {

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  ReadReport report = ReadNsys(files, trace, formats::StreamingSimulation(options), options.paje.sort_memory);
  formats::WarnTolerated(files.front(), report.Warnings());
  return {.events = report.rows, .bytes = report.bytes};
}

}  // namespace

formats::Format NsysFormat() {
  return {"nsys", "Nsight Systems SQLite exports (nsys export --type sqlite): CUDA, NVTX, OS runtime", LooksLikeNsys,
          Read};
}

}  // namespace macroscope::nsys

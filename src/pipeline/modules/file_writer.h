// What the writer modules share: an input "in" and the path of the file
// they write, recorded once written. Writers of text from rows (write-csv,
// write-json) fill a BufferedFile batch by batch through the table writer;
// writers of a trace (write-paje, write-store) write the trace rebuilt
// from the entities at the end of the stream (trace_rebuilding.h).
#pragma once

#include <string>
#include <utility>

#include "analysis/table_writer.h"
#include "pipeline/module.h"
#include "pipeline/modules/buffered_file.h"
#include "pipeline/modules/trace_rebuilding.h"
#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

template <class Batch>
class FileWriter : public Module {
 public:
  FileWriter(const std::string& name, std::string path) : Module(name), path_(std::move(path)) {
    in_ = &AddInput<Batch>("in");
  }

 protected:
  std::string path_;
  Input<Batch>* in_;
};

// Rows as text through the one table writer (analysis/table_writer.h),
// flushed now and then, committed at the end of the stream (the file
// appears whole or not at all).
class RowTextWriter : public FileWriter<RowBatch> {
 public:
  RowTextWriter(const std::string& name, std::string path, analysis::TableFormat format)
      : FileWriter(name, std::move(path)), format_(format) {}

  void Run() final {
    BufferedFile file(path_);
    analysis::TableWriter writer(format_);
    while (const RowBatch* batch = in_->Next()) {
      writer.Add(*batch, file.text());
      file.Flush();
    }
    writer.Finish(file.text());
    file.Commit();
    RecordWritten(path_);
  }

 private:
  analysis::TableFormat format_;
};

// The entities of one trace, kept until the end of the stream, then written
// as a trace to path_.
class TraceWriter : public FileWriter<EntityBatch> {
 public:
  // `kind` and `what` name the writer and its output in messages ("write-paje", "a Pajé file").
  TraceWriter(const std::string& name, std::string path, std::string kind, std::string what)
      : FileWriter(name, std::move(path)), kind_(std::move(kind)), what_(std::move(what)) {}

  void Run() final {
    TraceRebuilder rebuilder(kind_, what_);
    while (const EntityBatch* batch = in_->Next()) rebuilder.Add(*batch);
    Write(rebuilder);
    RecordWritten(path_);
  }

 protected:
  // Writes the trace (rebuilder.Build()) to path_.
  virtual void Write(TraceRebuilder& rebuilder) = 0;

 private:
  std::string kind_, what_;
};

}  // namespace macroscope::pipeline

// What the writer modules share: an input "in" and the path of the file
// they write, recorded once written. Writers of text from rows (write-csv,
// write-json) fill a BufferedFile batch by batch; writers of a trace
// (write-paje, write-store) write the trace rebuilt from the entities at
// the end of the stream (trace_rebuilding.h).
#pragma once

#include <string>
#include <utility>

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

// Rows as text, flushed now and then, committed at the end of the stream
// (the file appears whole or not at all).
class RowTextWriter : public FileWriter<RowBatch> {
 public:
  using FileWriter::FileWriter;

  void Run() final {
    BufferedFile file(path_);
    std::string& text = file.text();
    Begin(text);
    while (const RowBatch* batch = in_->Next()) {
      Append(*batch, text);
      file.Flush();
    }
    End(text);
    file.Commit();
    RecordWritten(path_);
  }

 protected:
  // The text before the rows, that of a batch's rows, the text after them.
  virtual void Begin(std::string& /*text*/) {}
  virtual void Append(const RowBatch& batch, std::string& text) = 0;
  virtual void End(std::string& /*text*/) {}
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

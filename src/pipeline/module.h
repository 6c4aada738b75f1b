// A module of a workflow: a stage with typed input and output ports that
// runs on a thread of its own (workflow.h). Run() reads its inputs until
// their end, writes its outputs, and returns (the workflow then closes its
// outputs) or throws (the workflow stops everything and reports the
// message, naming the module).
//
// A module declares its ports in its constructor:
//   in_ = &AddInput<EntityBatch>("in");
//   out_ = &AddOutput<RowBatch>("rows");
// and uses them in Run():
//   while (const EntityBatch* batch = in_->Next()) { ... }
//   RowBatch& rows = out_->Claim(); rows.Clear(); ...; out_->Publish();
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/ring.h"
#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

class Module;

class Port {
 public:
  Port(Module& module, std::string name, std::string_view type) : module_(module), name_(std::move(name)), type_(type) {}
  virtual ~Port() = default;
  Module& module() const { return module_; }
  const std::string& name() const { return name_; }
  std::string_view type() const { return type_; }
  // "module.port", as messages name a port.
  std::string FullName() const;

  // The workflow's hooks (workflow.cc). Outputs: Connect gives the output
  // its ring, with one cursor per linked input (none: batches are dropped);
  // Close ends the stream. Inputs: Close stops reading, so the producer no
  // longer waits for this consumer. Both: Cancel wakes every waiting call.
  virtual void Connect(const std::vector<Port*>& consumers, size_t capacity) {
    (void)consumers;
    (void)capacity;
  }
  virtual void Close() {}
  virtual void Cancel() {}

 private:
  Module& module_;
  std::string name_;
  std::string_view type_;
};

template <class T>
class Input : public Port {
 public:
  Input(Module& module, std::string name) : Port(module, std::move(name), StreamType<T>::kName) {}
  // The next batch (the previous one is released), nullptr at the end of
  // the stream. Throws Cancelled when the workflow stops.
  const T* Next() {
    if (holding_) ring_->Release(consumer_);
    holding_ = false;
    const T* batch = ring_->Peek(consumer_);
    holding_ = batch != nullptr;
    return batch;
  }
  // Stops reading (the producer no longer waits for this input).
  void Close() override {
    if (ring_ && !stopped_) ring_->Detach(consumer_);
    holding_ = false;
    stopped_ = true;
  }
  void Cancel() override {
    if (ring_) ring_->Cancel();
  }
  void Attach(Ring<T>* ring, size_t consumer) {
    ring_ = ring;
    consumer_ = consumer;
  }
  bool attached() const { return ring_ != nullptr; }

 private:
  Ring<T>* ring_ = nullptr;
  size_t consumer_ = 0;
  bool holding_ = false;
  bool stopped_ = false;
};

template <class T>
class Output : public Port {
 public:
  Output(Module& module, std::string name) : Port(module, std::move(name), StreamType<T>::kName) {}
  // The slot to fill next: it holds an old batch, so clear it first.
  // Waits while the consumers are a ring behind; throws Cancelled.
  T& Claim() { return ring_->Claim(); }
  void Publish() { ring_->Publish(); }
  // True when some input reads this output (a module may skip work whose
  // result nobody reads).
  bool linked() const { return ring_ && ring_->consumers() > 0; }

  void Connect(const std::vector<Port*>& consumers, size_t capacity) override {
    ring_ = std::make_unique<Ring<T>>(capacity, consumers.size());
    for (size_t c = 0; c < consumers.size(); ++c) static_cast<Input<T>*>(consumers[c])->Attach(ring_.get(), c);
  }
  void Close() override {
    if (ring_) ring_->Close();
  }
  void Cancel() override {
    if (ring_) ring_->Cancel();
  }

 private:
  std::unique_ptr<Ring<T>> ring_;
};

class Module {
 public:
  explicit Module(std::string name) : name_(std::move(name)) {}
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // The instance's name in its workflow ("count", "runs[3].read").
  const std::string& name() const { return name_; }
  const std::vector<std::unique_ptr<Port>>& inputs() const { return inputs_; }
  const std::vector<std::unique_ptr<Port>>& outputs() const { return outputs_; }
  Port* FindInput(std::string_view port) const;
  Port* FindOutput(std::string_view port) const;

  // Files the module read and wrote, for the record of a run (catalog).
  const std::vector<std::string>& files_read() const { return files_read_; }
  const std::vector<std::string>& files_written() const { return files_written_; }

  // Runs on the module's own thread.
  virtual void Run() = 0;

 protected:
  template <class T>
  Input<T>& AddInput(std::string port) {
    auto p = std::make_unique<Input<T>>(*this, std::move(port));
    Input<T>& ref = *p;
    inputs_.push_back(std::move(p));
    return ref;
  }
  template <class T>
  Output<T>& AddOutput(std::string port) {
    auto p = std::make_unique<Output<T>>(*this, std::move(port));
    Output<T>& ref = *p;
    outputs_.push_back(std::move(p));
    return ref;
  }
  void RecordRead(std::string path) { files_read_.push_back(std::move(path)); }
  void RecordWritten(std::string path) { files_written_.push_back(std::move(path)); }

 private:
  std::string name_;
  std::vector<std::unique_ptr<Port>> inputs_, outputs_;
  std::vector<std::string> files_read_, files_written_;
};

}  // namespace macroscope::pipeline

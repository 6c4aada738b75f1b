// A workflow: module instances and the links between their ports, run with
// one thread per module. Links are type-checked as they are made; Run()
// refuses a workflow with an unlinked input. A module that throws stops the
// workflow: every link is cancelled, every thread joined, and Run() throws
// UserError "module 'name': message" for the first failure. Cancel() (from
// any thread, e.g. on Ctrl-C) stops it the same way.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/module.h"

namespace macroscope::pipeline {

class Workflow {
 public:
  // Batches a link holds at most (its ring's slots).
  static constexpr size_t kDefaultCapacity = 8;
  explicit Workflow(size_t link_capacity = kDefaultCapacity) : capacity_(link_capacity) {}

  // Adds a module; its name must be unique (UserError otherwise).
  Module& Add(std::unique_ptr<Module> module);
  Module* Find(std::string_view name) const;
  const std::vector<std::unique_ptr<Module>>& modules() const { return modules_; }

  // Links an output to an input. Throws UserError naming both ports when
  // either is missing, their stream types differ, or the input is already
  // linked. An output may feed any number of inputs (broadcast).
  void Link(std::string_view from_module, std::string_view from_port, std::string_view to_module,
            std::string_view to_port);

  struct LinkInfo {
    const Port* from;
    const Port* to;
  };
  const std::vector<LinkInfo>& links() const { return links_; }

  // Throws UserError for an input that is not linked (Run checks it too).
  void CheckComplete() const;

  // Runs every module to its end. Call once.
  void Run();
  void Cancel();

 private:
  void Fail(const Module& module, const std::string& message);
  void CancelLinks();

  size_t capacity_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::vector<LinkInfo> links_;
  std::mutex failure_mutex_;
  std::string failure_;  // the first module's failure, "module 'x': message"
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> running_{false};
};

}  // namespace macroscope::pipeline

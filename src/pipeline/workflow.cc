#include "pipeline/workflow.h"

#include <exception>
#include <stdexcept>
#include <thread>

#include "util/error.h"

namespace macroscope::pipeline {

namespace {

// "in, rows" or "none", for messages about a missing port.
std::string PortList(const std::vector<std::unique_ptr<Port>>& ports) {
  if (ports.empty()) return "none";
  std::string list;
  for (const auto& p : ports) {
    if (!list.empty()) list += ", ";
    list += p->name();
  }
  return list;
}

std::string Quoted(std::string_view module, std::string_view port) {
  return "'" + std::string(module) + "." + std::string(port) + "'";
}

}  // namespace

Module& Workflow::Add(std::unique_ptr<Module> module) {
  if (running_) throw std::logic_error("workflow: Add after Run");
  if (Find(module->name())) throw UserError("workflow: two modules named '" + module->name() + "'");
  modules_.push_back(std::move(module));
  return *modules_.back();
}

Module* Workflow::Find(std::string_view name) const {
  for (const auto& m : modules_)
    if (m->name() == name) return m.get();
  return nullptr;
}

void Workflow::Link(std::string_view from_module, std::string_view from_port, std::string_view to_module,
                    std::string_view to_port) {
  if (running_) throw std::logic_error("workflow: Link after Run");
  const std::string what = "cannot link " + Quoted(from_module, from_port) + " to " + Quoted(to_module, to_port);
  const Module* from_m = Find(from_module);
  const Module* to_m = Find(to_module);
  if (!from_m) throw UserError(what + ": no module '" + std::string(from_module) + "'");
  if (!to_m) throw UserError(what + ": no module '" + std::string(to_module) + "'");
  const Port* from = from_m->FindOutput(from_port);
  if (!from)
    throw UserError("module '" + from_m->name() + "' has no output '" + std::string(from_port) +
                    "'; its outputs: " + PortList(from_m->outputs()));
  const Port* to = to_m->FindInput(to_port);
  if (!to)
    throw UserError("module '" + to_m->name() + "' has no input '" + std::string(to_port) +
                    "'; its inputs: " + PortList(to_m->inputs()));
  if (from->type() != to->type())
    throw UserError("cannot link '" + from->FullName() + "' (" + std::string(from->type()) + ") to '" +
                    to->FullName() + "' (" + std::string(to->type()) + ")");
  for (const LinkInfo& l : links_)
    if (l.to == to)
      throw UserError(what + ": '" + to->FullName() + "' is already linked to '" + l.from->FullName() + "'");
  links_.push_back({from, to});
}

void Workflow::CheckComplete() const {
  for (const auto& m : modules_)
    for (const auto& in : m->inputs()) {
      bool linked = false;
      for (const LinkInfo& l : links_) linked = linked || l.to == in.get();
      if (!linked) throw UserError("input '" + in->FullName() + "' is not linked");
    }
}

void Workflow::Run() {
  if (running_.exchange(true)) throw std::logic_error("workflow: Run called twice");
  if (capacity_ == 0) throw std::invalid_argument("workflow: links need at least one slot");
  CheckComplete();

  // Rings are made under the lock so that a concurrent Cancel() either
  // sees none (and we see cancelled_ below) or cancels them all.
  {
    std::lock_guard lock(failure_mutex_);
    for (const auto& m : modules_)
      for (const auto& out : m->outputs()) {
        std::vector<Port*> consumers;
        for (const LinkInfo& l : links_)
          if (l.from == out.get()) consumers.push_back(const_cast<Port*>(l.to));
        out->Connect(consumers, capacity_);
      }
  }
  if (cancelled_) CancelLinks();

  auto run_module = [this](Module& module) {
    try {
      module.Run();
    } catch (const Cancelled&) {
      // Stopped by another module's failure or by Cancel(): not an error,
      // and not an end either. Closing the outputs here would let a module
      // downstream whose link is not cancelled yet see a normal end of
      // stream and write its results.
      return;
    } catch (const std::exception& e) {
      Fail(module, e.what());
      return;
    } catch (...) {
      Fail(module, "unknown error");
      return;
    }
    // End of stream downstream; upstream no longer waits for this module
    // (a limit that stopped reading early).
    for (const auto& out : module.outputs()) out->Close();
    for (const auto& in : module.inputs()) in->Close();
  };

  std::vector<std::thread> threads;
  threads.reserve(modules_.size());
  try {
    for (const auto& m : modules_) threads.emplace_back(run_module, std::ref(*m));
  } catch (...) {
    // Could not start every thread: stop those that run.
    CancelLinks();
    for (std::thread& t : threads) t.join();
    throw;
  }
  for (std::thread& t : threads) t.join();

  std::lock_guard lock(failure_mutex_);
  if (!failure_.empty()) throw UserError(failure_);
  if (cancelled_) throw UserError("workflow cancelled");
}

void Workflow::Cancel() {
  cancelled_ = true;
  CancelLinks();
}

void Workflow::Fail(const Module& module, const std::string& message) {
  {
    std::lock_guard lock(failure_mutex_);
    // After Cancel() the errors are consequences of the stop, not causes.
    if (!failure_.empty() || cancelled_) return;
    failure_ = "module '" + module.name() + "': " + message;
  }
  CancelLinks();
}

void Workflow::CancelLinks() {
  std::lock_guard lock(failure_mutex_);
  for (const auto& m : modules_) {
    for (const auto& in : m->inputs()) in->Cancel();
    for (const auto& out : m->outputs()) out->Cancel();
  }
}

}  // namespace macroscope::pipeline

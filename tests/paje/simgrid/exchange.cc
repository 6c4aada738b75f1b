// A small S4U simulation whose only purpose is to produce a Pajé trace for
// the macroscope tests: a coordinator hands work items to two workers over
// mailboxes (blocking and asynchronous sends and receives), the workers
// compute and sleep, and a monitor adds noise of its own. It also uses the
// user-level tracing calls (categories, marks, host variables and host
// states) so that categorized traces hold events, add/sub and push/pop too.
// Usage: paje_exchange PLATFORM.xml [ITEMS] [--cfg=...]
// ITEMS (default 4, what the tests use) makes a longer run, e.g. for the
// pictures of docs/aggregate.md.
#include <simgrid/instr.h>
#include <simgrid/s4u.hpp>

#include <memory>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

XBT_LOG_NEW_DEFAULT_CATEGORY(paje_exchange, "macroscope tracing test");

namespace {

int items = 4;
constexpr int kStop = -1;

void Coordinator(std::vector<std::string> workers) {
  simgrid::instr::mark("phase", "distribute");
  // Asynchronous sends to every worker, waited for once the answers are in.
  std::vector<sg4::CommPtr> sends;
  for (int item = 0; item < items; ++item) {
    const std::string& to = workers[item % workers.size()];
    sg4::CommPtr send = sg4::Mailbox::by_name(to)->put_init(new int(item), 1e6 * (item % 7 + 1));
    send->set_tracing_category(item % 2 == 0 ? "even" : "odd");
    sends.push_back(send);
    send->start();
    simgrid::instr::add_host_variable("alpha", "in_flight", 1);
  }
  // Collect the answers with blocking receives while the sends complete.
  simgrid::instr::mark("phase", "collect");
  auto* replies = sg4::Mailbox::by_name("coordinator");
  for (int i = 0; i < items; ++i) {
    auto answer = std::unique_ptr<double>(replies->get<double>());
    XBT_DEBUG("answer %g", *answer);
  }
  sg4::Comm::wait_all(sends);
  simgrid::instr::set_host_variable("alpha", "in_flight", 0);
  for (const auto& to : workers) sg4::Mailbox::by_name(to)->put(new int(kStop), 100);
}

void Worker() {
  const std::string host = sg4::this_actor::get_host()->get_name();
  auto* inbox = sg4::Mailbox::by_name(sg4::this_actor::get_name());
  auto* replies = sg4::Mailbox::by_name("coordinator");
  for (;;) {
    int* raw = nullptr;
    sg4::CommPtr receive = inbox->get_async<int>(&raw);
    TRACE_host_push_state(host.c_str(), "activity", "waiting");
    sg4::this_actor::sleep_for(0.01);  // something else to do while the message travels
    receive->wait();
    TRACE_host_pop_state(host.c_str(), "activity");
    auto item = std::unique_ptr<int>(raw);
    if (*item == kStop) break;
    TRACE_host_push_state(host.c_str(), "activity", "computing");
    simgrid::instr::add_host_variable(host, "load", *item + 1);
    sg4::this_actor::exec_init(5e7 * (*item % 7 + 1))->set_tracing_category("compute")->wait();
    simgrid::instr::sub_host_variable(host, "load", *item + 1);
    TRACE_host_pop_state(host.c_str(), "activity");
    replies->put(new double(*item * 2.5), 5e5);
  }
}

void Monitor() {
  for (int round = 0; round < 3; ++round) {
    sg4::this_actor::exec_init(1e7)->set_tracing_category("compute")->wait();
    sg4::this_actor::sleep_for(0.05);
  }
}

void DeclareTracing() {
  simgrid::instr::declare_tracing_category("even", "1 0 0");
  simgrid::instr::declare_tracing_category("odd", "0 1 0");
  simgrid::instr::declare_tracing_category("compute", "0 0 1");
  simgrid::instr::declare_mark("phase");
  simgrid::instr::declare_mark_value("phase", "distribute");
  simgrid::instr::declare_mark_value("phase", "collect");
  simgrid::instr::declare_host_variable("in_flight");
  simgrid::instr::declare_host_variable("load");
  TRACE_host_state_declare("activity");
  TRACE_host_state_declare_value("activity", "waiting", "0.5 0.5 0.5");
  TRACE_host_state_declare_value("activity", "computing", "1 1 0");
}

}  // namespace

int main(int argc, char* argv[]) {
  sg4::Engine engine(&argc, argv);
  xbt_assert(argc == 2 || argc == 3, "Usage: %s PLATFORM.xml [ITEMS] [--cfg=...]", argv[0]);
  if (argc == 3) items = std::stoi(argv[2]);
  engine.load_platform(argv[1]);
  DeclareTracing();
  // pj_dump refuses an addition to a variable that has no value yet.
  for (const char* host : {"alpha", "beta", "gamma"}) simgrid::instr::set_host_variable(host, "load", 0);
  simgrid::instr::set_host_variable("alpha", "in_flight", 0);
  sg4::Actor::create("coordinator", engine.host_by_name("alpha"), Coordinator,
                     std::vector<std::string>{"worker_b", "worker_c"});
  sg4::Actor::create("worker_b", engine.host_by_name("beta"), Worker);
  sg4::Actor::create("worker_c", engine.host_by_name("gamma"), Worker);
  sg4::Actor::create("monitor", engine.host_by_name("alpha"), Monitor);
  engine.run();
  return 0;
}

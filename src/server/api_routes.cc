#include "server/api_routes.h"

#include <functional>
#include <new>
#include <nlohmann/json.hpp>

#include "analysis/aggregation_json.h"
#include "analysis/state_statistics.h"
#include "analysis/table_writer.h"
#include "server/aggregate_endpoints.h"
#include "server/api_error.h"
#include "server/entity_json.h"
#include "server/query_endpoint.h"
#include "server/query_params.h"
#include "server/trace_json.h"
#include "server/window.h"
#include "util/error.h"

namespace macroscope::server {

namespace {

using Body = std::function<std::string(const httplib::Request&)>;

std::string Dump(const nlohmann::ordered_json& json) {
  return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// The analyses report unknown names as UserError; those are "not found".
int StatusOf(const UserError& error) {
  const std::string_view message = error.what();
  for (std::string_view prefix : {"unknown type", "unknown container"}) {
    if (message.substr(0, prefix.size()) == prefix) return 404;
  }
  return 400;
}

// The answer `body` makes, of `content_type`; errors as JSON.
httplib::Server::Handler Answer(Body body, const char* content_type) {
  return [body = std::move(body), content_type](const httplib::Request& request, httplib::Response& response) {
    auto fail = [&](int status, const std::string& message) {
      response.status = status;
      response.set_content(ErrorJson(message), kJsonType);
    };
    try {
      // Moved in rather than copied by set_content: window answers are large.
      response.body = body(request);
      response.set_header("Content-Type", content_type);
    } catch (const ApiError& e) {
      if (e.retry_soon()) response.set_header("Retry-After", "1");
      fail(e.status(), e.what());
    } catch (const analysis::Cancelled&) {
      // The server stops, or the client has gone and nobody reads this.
      response.set_header("Retry-After", "1");
      fail(503, "computation cancelled: the server is stopping");
    } catch (const UserError& e) {
      fail(StatusOf(e), e.what());
    } catch (const std::bad_alloc&) {
      fail(503, "out of memory for this request");
    } catch (const std::exception& e) {
      fail(500, std::string("internal error: ") + e.what());
    } catch (...) {
      fail(500, "internal error");
    }
  };
}

httplib::Server::Handler Json(Body body) { return Answer(std::move(body), kJsonType); }

}  // namespace

std::string ErrorJson(const std::string& message) { return Dump({{"error", message}}); }

std::string ApiRoutes::Watched(const httplib::Request& request, const std::string& ask_for,
                               const std::function<std::string(const analysis::Cancellation*)>& work) const {
  const auto ticket = watch_.Watch(request);
  try {
    return work(ticket->cancellation());
  } catch (const analysis::Cancelled&) {
    if (!ticket->expired()) throw;
    throw ApiError(503, "computation stopped after " + std::to_string(watch_.time_limit().count()) +
                            " s (serve --max-compute-seconds): ask for " + ask_for);
  }
}

size_t ApiRoutes::ReadyIndex(const std::string& id) const {
  const size_t index = PathIndex(id, traces_.size(), "trace");
  switch (traces_[index]->state()) {
    case ServedTrace::State::kReady:
      return index;
    case ServedTrace::State::kLoading:
      // The list tells how far the reading has got; a client asks again.
      throw ApiError(503, id + ": still being read", true);
    case ServedTrace::State::kFailed:
      break;
  }
  throw ApiError(503, id + ": could not be read (the server stops)");
}

void ApiRoutes::Register(httplib::Server& http) {
  http.Get("/api/traces", Json([this](const httplib::Request&) {
             auto list = nlohmann::ordered_json::array();
             for (size_t i = 0; i < traces_.size(); ++i) list.push_back(TraceSummary(*traces_[i], i));
             return Dump(list);
           }));
  http.Get(R"(/api/traces/([^/]+))", Json([this](const httplib::Request& request) {
             const size_t id = ReadyIndex(request.matches[1]);
             return Dump(TraceDetails(*traces_[id], id));
           }));
  for (bool with_p : {true, false}) {
    http.Get(with_p ? R"(/api/traces/([^/]+)/aggregate)" : R"(/api/traces/([^/]+)/plist)",
             Json([this, with_p](const httplib::Request& request) {
               const size_t id = ReadyIndex(request.matches[1]);
               return Watched(request, "fewer slices, a shorter range or fewer containers", [&](auto cancel) {
                 return AggregateAnswer(traces_[id]->source(), id, request, cache_, threads_, with_p, cancel);
               });
             }));
  }
  http.Get(R"(/api/traces/([^/]+)/stats)", Json([this](const httplib::Request& request) {
             const EntitySource& source = ReadySource(request.matches[1]);
             const Trace& trace = source.trace();
             analysis::StatisticsRequest stats;
             stats.start = Number(request, "start");
             stats.end = Number(request, "end");
             stats.container_ids =
                 IdList(request, "containers", static_cast<uint32_t>(trace.containers().size() - 1));
             return analysis::StatisticsJson(analysis::ComputeStatistics(source, stats))
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
           }));
  http.Get(R"(/api/traces/([^/]+)/window)", Json([this](const httplib::Request& request) {
             const EntitySource& source = ReadySource(request.matches[1]);
             const Trace& trace = source.trace();
             WindowRequest window;
             window.start = RequiredNumber(request, "start");
             window.end = RequiredNumber(request, "end");
             auto width = Integer(request, "width", 1, kMaxWidth);
             if (!width) BadRequest("parameter width is required");
             window.width = static_cast<int>(*width);
             window.containers =
                 IdList(request, "containers", static_cast<uint32_t>(trace.containers().size() - 1));
             window.types = IdList(request, "types", static_cast<uint32_t>(trace.types().size() - 1));
             window.values = List(request, "values");
             return Watched(request, "a shorter window or fewer containers",
                            [&](auto cancel) { return WindowJson(source, window, cancel); });
           }));
  http.Get(R"(/api/traces/([^/]+)/entity/([^/]+))", Json([this](const httplib::Request& request) {
             const EntitySource& source = ReadySource(request.matches[1]);
             auto [store, index] = ParseEntityId(request.matches[2], source);
             return EntityJson(source, store, index);
           }));
  http.Get(R"(/api/traces/([^/]+)/search)", Json([this](const httplib::Request& request) {
             const EntitySource& source = ReadySource(request.matches[1]);
             auto query = Text(request, "q");
             if (!query) BadRequest("parameter q is required");
             auto limit = Integer(request, "limit", 1, static_cast<int64_t>(kMaxSearchLimit)).value_or(100);
             return Watched(request, "a smaller limit or a longer text", [&](auto cancel) {
               return SearchJson(source, *query, static_cast<size_t>(limit), cancel);
             });
           }));
  for (bool csv : {false, true}) {
    auto rows = [this, csv](const httplib::Request& request) {
      const size_t id = ReadyIndex(request.matches[1]);
      auto sql = Text(request, "sql");
      if (!sql) BadRequest("parameter sql is required");
      const auto limit = Integer(request, "limit", 1, static_cast<int64_t>(kMaxQueryRows));
      return Watched(request, "a statement that reads less (a window, a container, a LIMIT)", [&](auto cancel) {
        const EntitySource& source = traces_[id]->source();
        bool cut = false, other_loading = false;
        analysis::Table table;
        try {
          table = QueryRows(source, traces_[id]->name(), *sql, limit ? static_cast<size_t>(*limit) : kDefaultQueryRows,
                            cancel, cut, ServedTraceOpener(traces_, other_loading));
        } catch (const UserError& e) {
          // The other trace of a comparison is still being read: ask again soon.
          if (other_loading) throw ApiError(503, e.what(), true);
          throw;
        }
        return csv ? analysis::FormatTable(table, analysis::TableFormat::kCsv)
                   : QueryJson(table, cut, source.trace().time_base());
      });
    };
    if (csv) http.Get(R"(/api/traces/([^/]+)/query\.csv)", Answer(rows, kCsvType));
    else http.Get(R"(/api/traces/([^/]+)/query)", Json(rows));
  }
  http.Get(R"(/api(/.*)?)", Json([](const httplib::Request& request) -> std::string {
             NotFound("no endpoint " + request.path);
           }));
}

}  // namespace macroscope::server

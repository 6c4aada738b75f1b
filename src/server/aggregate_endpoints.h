// GET /api/traces/{t}/aggregate and /plist: the parameters of
// `macroscope aggregate` read from a request, the model and its
// aggregation taken from the cache (or built), and the answer.
#pragma once

#include <httplib.h>

#include <string>

#include "analysis/cancellation.h"
#include "server/aggregation_cache.h"
#include "server/served_trace.h"

namespace macroscope::server {

// `with_p`: the partition at the request's p (aggregate); otherwise the
// significant p values (plist). `threads` for building the model and
// computing qualities (0: one per core). Throws ApiError (or UserError from
// the analysis) for bad parameters, analysis::Cancelled once `cancel` is
// set.
std::string AggregateAnswer(const EntitySource& source, size_t trace_id, const httplib::Request& request,
                            AggregationCache& cache, int threads, bool with_p,
                            const analysis::Cancellation* cancel);

}  // namespace macroscope::server

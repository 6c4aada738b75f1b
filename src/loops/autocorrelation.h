// Autocorrelation of a vector sequence, used to order candidate periods.
#pragma once

#include <cstdint>
#include <vector>

namespace macroscope::loops {

// r_k for k = 1..max_lag (index k-1) of the width-w sequence data[0..n):
// the standard estimator sum_t (x_t - m)(x_{t+k} - m) / sum_t (x_t - m)^2,
// summed over the components (values read as int64_t). A constant
// sequence gives 0 everywhere. O(n * max_lag * width).
std::vector<double> Autocorrelation(const uint64_t* data, int64_t n, int width, int64_t max_lag);

// Lags 1..max_lag sorted by decreasing autocorrelation (ties: smaller lag).
std::vector<int64_t> PeriodsByAutocorrelation(const uint64_t* data, int64_t n, int width,
                                              int64_t max_lag);

}  // namespace macroscope::loops

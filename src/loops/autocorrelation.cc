#include "loops/autocorrelation.h"

#include <algorithm>
#include <numeric>

namespace macroscope::loops {

std::vector<double> Autocorrelation(const uint64_t* data, int64_t n, int width, int64_t max_lag) {
  std::vector<double> r(static_cast<size_t>(std::max<int64_t>(max_lag, 0)), 0.0);
  if (n < 2 || max_lag <= 0) return r;
  std::vector<double> centred(static_cast<size_t>(n));
  std::vector<double> numerator(r.size(), 0.0);
  double denominator = 0.0;
  for (int c = 0; c < width; ++c) {
    double mean = 0.0;
    for (int64_t t = 0; t < n; ++t) mean += static_cast<double>(static_cast<int64_t>(data[t * width + c]));
    mean /= static_cast<double>(n);
    for (int64_t t = 0; t < n; ++t) {
      centred[t] = static_cast<double>(static_cast<int64_t>(data[t * width + c])) - mean;
      denominator += centred[t] * centred[t];
    }
    for (int64_t k = 1; k <= max_lag && k < n; ++k) {
      double sum = 0.0;
      const double* a = centred.data();
      const double* b = centred.data() + k;
      const int64_t m = n - k;
      for (int64_t t = 0; t < m; ++t) sum += a[t] * b[t];
      numerator[k - 1] += sum;
    }
  }
  if (denominator > 0.0) {
    for (size_t k = 0; k < r.size(); ++k) r[k] = numerator[k] / denominator;
  }
  return r;
}

std::vector<int64_t> PeriodsByAutocorrelation(const uint64_t* data, int64_t n, int width,
                                              int64_t max_lag) {
  const std::vector<double> r = Autocorrelation(data, n, width, max_lag);
  std::vector<int64_t> lags(r.size());
  std::iota(lags.begin(), lags.end(), int64_t{1});
  std::stable_sort(lags.begin(), lags.end(),
                   [&](int64_t a, int64_t b) { return r[a - 1] > r[b - 1]; });
  return lags;
}

}  // namespace macroscope::loops

#include "host/validation/superior_predictive_ability.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>

#include "host/engine/worker_threads.h"

namespace btforge {

namespace {

// Combinations per tile: the inner loop runs across them, so the compiler
// keeps kTile independent sums in vector registers (no reassociation).
constexpr std::uint64_t kTile = 8;

bool finite_stream(const double* x, int observations) {
    for (int t = 0; t < observations; ++t) {
        if (!std::isfinite(x[t])) return false;
    }
    return true;
}

// m_k in index order; NaN for a stream that is not finite.
std::vector<double> stream_means(const Differentials& d) {
    std::vector<double> means(d.count);
    for (std::uint64_t k = 0; k < d.count; ++k) {
        const double* x = d.values.data() + k * static_cast<std::uint64_t>(d.observations);
        if (!finite_stream(x, d.observations)) {
            means[k] = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        double sum = 0.0;
        for (int t = 0; t < d.observations; ++t) sum += x[t];
        means[k] = sum / static_cast<double>(d.observations);
    }
    return means;
}

}  // namespace

std::vector<SparseResample> sparse_resamples(const BootstrapCounts& resamples) {
    std::vector<SparseResample> sparse(static_cast<std::size_t>(resamples.resamples));
    for (int b = 0; b < resamples.resamples; ++b) {
        const std::span<const std::uint32_t> counts = resamples.of(b);
        for (int t = 0; t < resamples.observations; ++t) {
            if (counts[static_cast<std::size_t>(t)] == 0) continue;
            sparse[static_cast<std::size_t>(b)].position.push_back(t);
            sparse[static_cast<std::size_t>(b)].count.push_back(static_cast<double>(counts[static_cast<std::size_t>(t)]));
        }
    }
    return sparse;
}

std::vector<double> bootstrap_maxima(const Differentials& d, std::span<const SparseResample> resamples,
                                     const BootstrapPass& pass, const SpaOptions& options, bool& cancelled) {
    const std::vector<const std::vector<double>*>& centers = pass.centers;
    const std::vector<char>& selected = *pass.selected;
    const std::size_t n_centers = centers.size();
    const std::size_t width = resamples.size() * n_centers;
    const std::uint64_t tiles = (d.count + kTile - 1) / kTile;
    const std::size_t T = static_cast<std::size_t>(d.observations);
    const double observations = static_cast<double>(d.observations);
    std::vector<double> maxima(width, -std::numeric_limits<double>::infinity());
    std::atomic<std::uint64_t> next{0};
    std::mutex mutex;
    std::exception_ptr failure;
    run_worker_threads(options.threads, [&] {
        try {
            std::vector<double> partial(width, -std::numeric_limits<double>::infinity());
            std::vector<double> tile_values(T * kTile);  // [t * kTile + j]
            for (std::uint64_t tile = next++; tile < tiles; tile = next++) {
                if (options.cancel != nullptr && options.cancel->load()) break;
                const std::uint64_t first = tile * kTile;
                const std::uint64_t n = std::min<std::uint64_t>(kTile, d.count - first);
                bool any = false;
                for (std::uint64_t j = 0; j < n; ++j) any = any || selected[first + j] != 0;
                if (any) {
                    std::fill(tile_values.begin(), tile_values.end(), 0.0);
                    for (std::uint64_t j = 0; j < n; ++j) {
                        if (selected[first + j] == 0) continue;
                        const double* x = d.values.data() + (first + j) * T;
                        for (std::size_t t = 0; t < T; ++t) tile_values[t * kTile + j] = x[t];
                    }
                    for (std::size_t b = 0; b < resamples.size(); ++b) {
                        const SparseResample& r = resamples[b];
                        double sums[kTile] = {};
                        for (std::size_t i = 0; i < r.position.size(); ++i) {
                            const double c = r.count[i];
                            const double* row = tile_values.data() + static_cast<std::size_t>(r.position[i]) * kTile;
                            for (std::uint64_t j = 0; j < kTile; ++j) sums[j] += c * row[j];
                        }
                        for (std::uint64_t j = 0; j < n; ++j) {
                            if (selected[first + j] == 0) continue;
                            const double mean = sums[j] / observations;
                            for (std::size_t v = 0; v < n_centers; ++v) {
                                const double value = mean - (*centers[v])[first + j];
                                double& best = partial[b * n_centers + v];
                                if (value > best) best = value;
                            }
                        }
                    }
                }
                if (options.scanned != nullptr) options.scanned->fetch_add(n);
            }
            std::lock_guard<std::mutex> lock(mutex);
            for (std::size_t i = 0; i < width; ++i) maxima[i] = std::max(maxima[i], partial[i]);
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex);
            if (!failure) failure = std::current_exception();
        }
    });
    if (failure) std::rethrow_exception(failure);
    if (options.cancel != nullptr && options.cancel->load()) cancelled = true;
    // A maximum of +0 and -0 depends on which came first; +0 for both.
    for (double& m : maxima) m += 0.0;
    return maxima;
}

namespace {

std::vector<double> column(const std::vector<double>& maxima, std::size_t n_centers, std::size_t v) {
    std::vector<double> values(maxima.size() / n_centers);
    for (std::size_t b = 0; b < values.size(); ++b) values[b] = maxima[b * n_centers + v];
    return values;
}

double share_above(const std::vector<double>& values, double observed) {
    std::size_t above = 0;
    for (double v : values) above += v > observed ? 1 : 0;
    return static_cast<double>(above) / static_cast<double>(values.size());
}

}  // namespace

double linear_percentile(std::vector<double> values, double q) {
    if (values.empty()) throw std::invalid_argument("the percentile of no values");
    std::sort(values.begin(), values.end());
    // numpy: virtual index (n - 1) * q / 100, then _lerp(below, above, gamma).
    const double index = static_cast<double>(values.size() - 1) * (q / 100.0);
    const double below_index = std::floor(index);
    const std::size_t below = static_cast<std::size_t>(below_index);
    const std::size_t above = std::min(below + 1, values.size() - 1);
    const double gamma = index - below_index;
    const double a = values[below];
    const double b = values[above];
    const double difference = b - a;
    return gamma >= 0.5 ? b - difference * (1.0 - gamma) : a + difference * gamma;
}

std::vector<double> stationary_bootstrap_kappa(int observations, double mean_block) {
    const double t = static_cast<double>(observations);
    const double p = 1.0 / mean_block;
    std::vector<double> kappa(static_cast<std::size_t>(std::max(observations, 0)));
    for (int i = 1; i < observations; ++i) {
        const double share = static_cast<double>(i) / t;
        kappa[static_cast<std::size_t>(i)] =
            ((1.0 - share) * std::pow(1.0 - p, i)) + (share * std::pow(1.0 - p, observations - i));
    }
    return kappa;
}

std::vector<double> stationary_bootstrap_variances(const Differentials& d, double mean_block, int threads) {
    const int T = d.observations;
    const double t = static_cast<double>(T);
    const std::vector<double> kappa = stationary_bootstrap_kappa(T, mean_block);
    std::vector<double> variances(d.count);
    const std::uint64_t tile_size = 256;
    run_tiles(threads, d.count, tile_size, [&](std::uint64_t, std::uint64_t first, std::uint64_t end) {
        std::vector<double> demeaned(static_cast<std::size_t>(T));
        for (std::uint64_t k = first; k < end; ++k) {
            const double* x = d.values.data() + k * static_cast<std::uint64_t>(T);
            double sum = 0.0;
            for (int s = 0; s < T; ++s) sum += x[s];
            const double mean = sum / t;
            double squares = 0.0;
            for (int s = 0; s < T; ++s) {
                demeaned[static_cast<std::size_t>(s)] = x[s] - mean;
                squares += demeaned[static_cast<std::size_t>(s)] * demeaned[static_cast<std::size_t>(s)];
            }
            double variance = squares / t;
            for (int i = 1; i < T; ++i) {
                double lagged = 0.0;
                for (int s = 0; s + i < T; ++s) {
                    lagged += demeaned[static_cast<std::size_t>(s)] * demeaned[static_cast<std::size_t>(s + i)];
                }
                variance += 2.0 * kappa[static_cast<std::size_t>(i)] * lagged / t;
            }
            variances[k] = variance;
        }
    });
    return variances;
}

SpaReport superior_predictive_ability(const Differentials& d, const BootstrapCounts& resamples,
                                      const SpaOptions& options) {
    if (d.observations < 1 || d.values.size() != d.count * static_cast<std::uint64_t>(d.observations)) {
        throw std::invalid_argument("the differentials are not " + std::to_string(d.count) + " streams of " +
                                    std::to_string(d.observations) + " observations (" +
                                    std::to_string(d.values.size()) + " values)");
    }
    if (resamples.observations != d.observations || resamples.resamples < 1 ||
        resamples.counts.size() != static_cast<std::size_t>(resamples.observations) *
                                       static_cast<std::size_t>(resamples.resamples)) {
        throw std::invalid_argument("the resamples are not of " + std::to_string(d.observations) + " observations");
    }
    if (!(options.size > 0.0 && options.size < 1.0)) {
        throw std::invalid_argument("the size of StepM must be in (0, 1), got " + std::to_string(options.size));
    }
    if (!std::isfinite(options.mean_block) || options.mean_block < 1.0) {
        throw std::invalid_argument("the mean block length must be >= 1, got " + std::to_string(options.mean_block));
    }
    SpaReport report;
    report.observations = d.observations;
    report.resamples = resamples.resamples;
    report.mean_block = options.mean_block;
    report.size = options.size;
    const std::vector<double> means = stream_means(d);
    std::vector<char> selected(d.count);
    for (std::uint64_t k = 0; k < d.count; ++k) {
        selected[k] = std::isnan(means[k]) ? 0 : 1;
        report.combinations += selected[k];
        if (selected[k] != 0 && (report.combinations == 1 || means[k] > report.best_mean)) {
            report.best = k;
            report.best_mean = means[k];
        }
    }
    report.left_out = d.count - report.combinations;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    report.pvalue_lower = report.pvalue_consistent = report.pvalue_upper = report.critical_value = nan;
    if (report.combinations == 0) {
        report.best_mean = nan;
        report.undefined = kSpaNoCombination;
        return report;
    }
    if (d.observations < 3) {
        report.undefined = kSpaTooFewObservations;
        return report;
    }

    const std::vector<SparseResample> sparse = sparse_resamples(resamples);
    // Note [Bootstrap maxima on the device]: the variances and the passes
    // there when it can.
    std::unique_ptr<BootstrapScan> device = options.device ? options.device(d, sparse) : nullptr;
    if (device) report.device = device->where();

    // The three recenterings (arch's `_simulate_values`).
    const std::vector<double> variances =
        device ? device->variances(stationary_bootstrap_kappa(d.observations, options.mean_block))
               : stationary_bootstrap_variances(d, options.mean_block, options.threads);
    const double t = static_cast<double>(d.observations);
    const double log_log_t = std::log(std::log(t));
    std::vector<double> lower(d.count), consistent(d.count), upper(d.count);
    for (std::uint64_t k = 0; k < d.count; ++k) {
        if (selected[k] == 0) continue;
        const double threshold = -1.0 * std::sqrt((variances[k] / t) * 2.0 * log_log_t);
        upper[k] = means[k];
        consistent[k] = means[k] >= threshold ? means[k] : 0.0;
        lower[k] = means[k] < 0.0 ? 0.0 : means[k];
    }

    bool cancelled = false;
    const auto pass = [&](const BootstrapPass& p, const SpaOptions& o) {
        if (!device) return bootstrap_maxima(d, sparse, p, o, cancelled);
        if (o.cancel != nullptr && o.cancel->load()) {
            cancelled = true;
            return std::vector<double>();
        }
        std::vector<double> maxima = device->maxima(p);
        if (o.scanned != nullptr) o.scanned->fetch_add(d.count);
        return maxima;
    };
    const std::vector<double> maxima = pass(BootstrapPass{{&lower, &consistent, &upper}, &selected}, options);
    report.steps = 1;
    if (cancelled) {
        report.cancelled = true;
        return report;
    }
    report.pvalue_lower = share_above(column(maxima, 3, 0), report.best_mean);
    report.pvalue_consistent = share_above(column(maxima, 3, 1), report.best_mean);
    report.pvalue_upper = share_above(column(maxima, 3, 2), report.best_mean);

    // StepM (arch's StepM.compute): reject, remove, take the quantile again.
    const double q = 100.0 * (1.0 - options.size);
    report.critical_value = linear_percentile(column(maxima, 3, 1), q);
    double critical = report.critical_value;
    std::uint64_t rejected_now = 0;
    for (;;) {
        rejected_now = 0;
        for (std::uint64_t k = 0; k < d.count; ++k) {
            if (selected[k] != 0 && means[k] > critical) {
                report.superior.push_back(k);
                ++rejected_now;
            }
        }
        if (rejected_now == 0 || report.superior.size() >= report.combinations) break;
        for (std::uint64_t k : report.superior) selected[k] = 0;
        SpaOptions later = options;  // progress counts the first pass, whose length is known
        later.scanned = nullptr;
        const std::vector<double> next = pass(BootstrapPass{{&consistent}, &selected}, later);
        report.steps += 1;
        if (cancelled) {
            report.cancelled = true;
            return report;
        }
        critical = linear_percentile(next, q);
    }
    std::sort(report.superior.begin(), report.superior.end());
    return report;
}

}  // namespace btforge

#include "host/engine/cpu_sweep.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "host/engine/row_outcome.h"
#include "host/engine/top_outcomes.h"
#include "host/engine/worker_threads.h"

namespace btforge {

namespace {

std::string join_names(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Ordinals are handed out in blocks: large enough that the atomic is not
// contended, small enough that threads finish together.
constexpr std::uint64_t kBlock = 8;

}  // namespace

std::string describe_run(const std::string& backend, const SweepOutcome& outcome) {
    return outcome.kernel_variant.empty() ? backend : backend + "; kernel variant " + outcome.kernel_variant;
}

const StrategyBinding& bind_strategy(const StrategySpec& spec) {
    const StrategyBinding* binding = find_strategy_binding(spec.name);
    if (binding == nullptr) {
        throw std::runtime_error(spec.origin + ": no strategy kernel named '" + spec.name +
                                 "' is built into this binary (see reference/strategies/)");
    }
    std::vector<std::string> spec_params, spec_series;
    for (const ParameterSpec& p : spec.parameters) spec_params.push_back(p.name);
    for (const IndicatorUse& u : spec.indicators) spec_series.push_back(u.id);
    std::vector<std::string> kernel_params(binding->parameters.begin(), binding->parameters.end());
    std::vector<std::string> kernel_series(binding->series.begin(), binding->series.end());
    if (spec_params != kernel_params) {
        throw std::runtime_error(spec.origin + ": the parameters of strategy '" + spec.name + "' (" +
                                 join_names(spec_params) + ") do not match its kernel's (" +
                                 join_names(kernel_params) + "), in name or order");
    }
    if (spec_series != kernel_series) {
        throw std::runtime_error(spec.origin + ": the indicators of strategy '" + spec.name + "' (" +
                                 join_names(spec_series) + ") do not match the series its kernel reads (" +
                                 join_names(kernel_series) + "), in id or order");
    }
    return *binding;
}

void SweepJob::resolve_series(std::span<const double> parameter_values, std::span<const double*> out) const {
    series->resolve(parameter_values, out);
    for (const double*& row : out) row += window.first_bar;
}

Metrics run_combination(const SweepJob& job, std::span<const double> parameter_values, FillLog* log,
                        double* equity_curve, PeriodStatistics* periods) {
    std::vector<const double*> series(job.spec->indicators.size());
    job.resolve_series(parameter_values, series);
    Metrics metrics{};
    job.binding->run(job.view(), series.data(), parameter_values.data(), job.account, metrics, log, equity_curve,
                     periods);
    return metrics;
}

std::uint64_t sweep_combinations(const SweepJob& job, const SweepOptions& options) {
    const std::uint64_t first = options.first_ordinal;
    const std::uint64_t last =
        options.end_ordinal != 0 ? std::min(options.end_ordinal, job.space->count()) : job.space->count();
    const std::uint64_t combinations = last > first ? last - first : 0;
    return options.max_combinations != 0 ? std::min(combinations, options.max_combinations) : combinations;
}

OutcomeKey outcome_key_of(const SweepOutcome& outcome, const CombinationSpace& space, const SweepOptions& options,
                          std::uint64_t id) {
    const std::optional<std::uint64_t> ordinal = space.ordinal_of(id);
    if (!ordinal || *ordinal < options.first_ordinal || *ordinal - options.first_ordinal >= outcome.outcomes.size()) {
        throw std::logic_error("combination " + std::to_string(id) + " is not one of the run's");
    }
    return outcome.outcomes[*ordinal - options.first_ordinal];
}

SweepOutcome run_sweep_in_blocks(const SweepJob& job, const SweepOptions& options, std::uint64_t block,
                                 const BlockRunner& run_block) {
    auto started = std::chrono::steady_clock::now();
    SweepOutcome outcome;
    const std::uint64_t first = options.first_ordinal;
    outcome.combinations = sweep_combinations(job, options);
    const std::uint64_t stop = first + outcome.combinations;
    outcome.threads = std::max(1, options.threads);
    if (options.keep_all_rows) outcome.all.resize(outcome.combinations);
    const std::size_t n_periods = static_cast<std::size_t>(std::max(job.account.n_periods, 0));
    outcome.periods.resize(outcome.combinations * n_periods);
    const std::size_t n_marks = static_cast<std::size_t>(std::max(job.account.equity_marks, 0));
    outcome.equity_marks.resize(outcome.combinations * n_marks);
    outcome.outcomes.resize(outcome.combinations);

    std::atomic<std::uint64_t> next{first};
    std::atomic<std::uint64_t> invalid_rows{0};
    std::mutex merge_mutex;
    // Note [Distinct outcomes]: the top N outcomes, each by its best row.
    TopOutcomes top(options.rank_order(), options.top_n);
    std::exception_ptr failure;

    auto worker = [&] {
        try {
            TopOutcomes local(options.rank_order(), options.top_n);
            std::uint64_t local_invalid = 0;
            std::vector<ResultRow> rows(block);
            while (true) {
                if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) break;
                std::uint64_t begin = next.fetch_add(block);
                if (begin >= stop) break;
                std::uint64_t end = std::min(begin + block, stop);
                // Blocks are disjoint: each writes its own rows of `periods` and `equity_marks`.
                run_block(begin, end, rows.data(),
                          n_periods != 0 ? outcome.periods.data() + (begin - first) * n_periods : nullptr,
                          n_marks != 0 ? outcome.equity_marks.data() + (begin - first) * n_marks : nullptr);
                for (std::uint64_t ordinal = begin; ordinal < end; ++ordinal) {
                    const ResultRow& row = rows[ordinal - begin];
                    const std::size_t at = ordinal - first;
                    const OutcomeKey key = outcome_of(
                        row.metrics, std::span<const PeriodStatistics>(outcome.periods.data() + at * n_periods, n_periods));
                    outcome.outcomes[at] = key;
                    local.offer(row, key);
                    if (!metrics_are_finite(row.metrics)) ++local_invalid;
                    if (options.keep_all_rows) outcome.all[ordinal - first] = row;
                }
                if (options.row_sink) options.row_sink(begin - first, std::span<const ResultRow>(rows.data(), end - begin));
                if (options.completed != nullptr) options.completed->fetch_add(end - begin);
            }
            invalid_rows.fetch_add(local_invalid);
            std::lock_guard lock(merge_mutex);
            top.merge(local);
        } catch (...) {
            std::lock_guard lock(merge_mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    // Note [Threads that cannot start]
    const WorkerThreads ran = run_worker_threads(outcome.threads, worker);
    outcome.threads = ran.started;
    outcome.thread_shortfall = ran.shortfall;
    if (failure) std::rethrow_exception(failure);
    outcome.cancelled = options.cancel != nullptr && options.cancel->load() && next.load() < stop;
    outcome.top = top.sorted_rows();
    outcome.invalid_rows = invalid_rows.load();
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
}

SweepOutcome run_cpu_sweep(const SweepJob& job, const SweepOptions& options) {
    return run_sweep_in_blocks(job, options, kBlock, [&job](std::uint64_t begin, std::uint64_t end, ResultRow* rows,
                                                            PeriodStatistics* periods, double* marks) {
        const std::size_t n_periods = static_cast<std::size_t>(std::max(job.account.n_periods, 0));
        const std::size_t n_marks = static_cast<std::size_t>(std::max(job.account.equity_marks, 0));
        std::vector<double> values(job.spec->parameters.size());
        std::vector<const double*> series(job.spec->indicators.size());
        const MarketView view = job.view();
        for (std::uint64_t ordinal = begin; ordinal < end; ++ordinal) {
            ResultRow& row = rows[ordinal - begin];
            row.combination_id = job.space->combination_id(ordinal);
            job.space->decode(row.combination_id, values);
            job.resolve_series(values, series);
            job.binding->run(view, series.data(), values.data(), job.account, row.metrics, nullptr,
                             marks != nullptr ? marks + (ordinal - begin) * n_marks : nullptr,
                             periods != nullptr ? periods + (ordinal - begin) * n_periods : nullptr);
        }
    });
}

}  // namespace btforge

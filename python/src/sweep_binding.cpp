#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "host/app/sweep_run.h"
#include "host/spec/assignments.h"
#include "python/src/bindings.h"
#include "python/src/market_binding.h"
#include "python/src/numpy_arrays.h"
#include "python/src/run_options.h"

namespace nb = nanobind;

namespace btforge::python {

namespace {

// Note [Sweeps off the interpreter's thread]
// A sweep runs on a thread of its own, without the GIL, while Python's
// thread waits in short slices: it can draw progress in a notebook, and
// Ctrl-C (a KeyboardInterrupt between two slices) sets the run's cancel
// flag, which stops the workers and the CSCV scans as the command line's
// first Ctrl-C does. The error of a failed run is kept and raised, as its
// btforge.errors class, when Python asks for the result.
class SweepTask {
public:
    SweepTask(nb::dict options, std::optional<MarketHandle> market) {
        RunOptions read(options);
        SweepRequest request;
        read.read_run(request, market ? market->loaded : nullptr);
        request.backend = read.backend();
        request.rank_by = read.text("rank_by", request.rank_by);
        request.min_trades = static_cast<int>(read.integer("min_trades", request.min_trades));
        request.top_n = read.integer("top", request.top_n);
        request.threads = static_cast<int>(read.integer("threads", request.threads));
        request.all_rows = read.flag("all_rows", false);
        request.intrabar_bounds = read.flag("intrabar_bounds", false);  // Note [Bounds of the order inside a bar]
        request.periods = static_cast<int>(read.integer("periods", request.periods));
        request.pbo = read.flag("pbo", false);
        request.pbo_backend = read.text("pbo_backend", request.pbo_backend);
        request.walk_forward = read.text("walk_forward", "");
        request.cpcv = read.text("cpcv", "");
        request.spa = read.text("spa", "");
        request.returns = static_cast<int>(read.integer("returns", request.returns));
        request.daily_returns = read.flag("daily_returns", false);  // Note [Equity marks at UTC days]
        request.spa_seed = static_cast<unsigned long long>(read.integer("spa_seed", 0));
        request.spa_size = read.number("spa_size", request.spa_size);
        request.spa_benchmark = read.text("spa_benchmark", request.spa_benchmark);
        const std::string spool = read.text("spool_directory", "");
        request.spool_directory = spool.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(spool);
        read.check_all_read();
        checked_ = check_sweep_request(std::move(request));  // usage errors before any work
        worker_ = std::thread([this] { work(); });
    }

    SweepTask(const SweepTask&) = delete;
    SweepTask& operator=(const SweepTask&) = delete;

    ~SweepTask() {
        cancel_ = true;
        nb::gil_scoped_release unlocked;
        if (worker_.joinable()) worker_.join();
    }

    // True when the run has ended (finished, failed or cancelled).
    bool wait(double seconds) {
        nb::gil_scoped_release unlocked;
        std::unique_lock lock(mutex_);
        return ended_cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return ended_; });
    }

    void cancel() { cancel_ = true; }

    // (stage, done, total): stage 0 preparing, 1 sweeping, 2 PBO scans, 3 done.
    std::tuple<int, std::uint64_t, std::uint64_t> progress() const {
        return {progress_.stage.load(), progress_.done.load(), progress_.total.load()};
    }

    std::string header() {
        std::lock_guard lock(mutex_);
        return header_;
    }

    nb::dict result();

private:
    void work() {
        SweepHooks hooks;
        hooks.header = [this](const std::string& text) {
            std::lock_guard lock(mutex_);
            header_ = text;
        };
        hooks.progress = &progress_;
        hooks.cancel = &cancel_;
        // Said by btforge.sweep as warnings once the run is over (a GPU that
        // auto could not use, the kernel a JIT built).
        hooks.notice = [this](const std::string& line) {
            std::lock_guard lock(mutex_);
            notices_.push_back(line);
        };
        std::unique_ptr<SweepRun> run;
        std::exception_ptr error;
        const auto began = std::chrono::steady_clock::now();
        try {
            run = run_sweep(checked_, hooks);
        } catch (...) {
            error = std::current_exception();
        }
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - began;
        std::lock_guard lock(mutex_);
        run_seconds_ = took.count();
        run_ = std::move(run);
        error_ = error;
        ended_ = true;
        ended_cv_.notify_all();
    }

    CheckedSweepRequest checked_;
    SweepProgress progress_;
    std::atomic<bool> cancel_{false};
    std::mutex mutex_;
    std::condition_variable ended_cv_;
    bool ended_ = false;
    std::string header_;
    std::vector<std::string> notices_;
    double run_seconds_ = 0.0;  // run_sweep from call to return: loading, sweep, validation, ranking
    std::unique_ptr<SweepRun> run_;
    std::exception_ptr error_;
    std::thread worker_;
};

// The rows as the CSV has them (write_results_csv): rank, combination_id,
// valid, enough_trades, every parameter (int64, float64 or bool by its
// type), every metric (int64 when integral), outcome_combinations and
// outcome_first_id (Note [Distinct outcomes]), best first.
nb::dict row_columns(const SweepRun& run) {
    const StrategySpec& spec = run.strategy.spec;
    const CombinationSpace& space = *run.space;
    const RankedRows& ranked = run.ranked();
    const auto n = static_cast<std::size_t>(ranked.size());
    std::vector<std::int64_t> rank(n), id(n), outcome_combinations(n), outcome_first_id(n);
    std::vector<bool> valid(n), enough_trades(n);
    std::vector<std::vector<double>> values(spec.parameters.size(), std::vector<double>(n));
    const auto metrics = metric_columns();
    std::vector<std::vector<double>> metric_values(metrics.size(), std::vector<double>(n));
    std::vector<double> decoded(spec.parameters.size());
    for (std::size_t r = 0; r < n; ++r) {
        const ResultRow row = ranked.at(r);
        rank[r] = static_cast<std::int64_t>(r + 1);
        id[r] = static_cast<std::int64_t>(row.combination_id);
        valid[r] = metrics_are_finite(row.metrics);
        enough_trades[r] = has_enough_trades(row.metrics, run.summary.min_trades);
        space.decode(row.combination_id, decoded);
        for (std::size_t p = 0; p < decoded.size(); ++p) values[p][r] = decoded[p];
        for (std::size_t m = 0; m < metrics.size(); ++m) metric_values[m][r] = metrics[m].read(row.metrics);
        const OutcomeOfRow outcome = run.outcomes->of(row.combination_id);
        outcome_combinations[r] = static_cast<std::int64_t>(outcome.combinations);
        outcome_first_id[r] = static_cast<std::int64_t>(outcome.first_id);
    }
    const auto as_int64 = [](const std::vector<double>& v) {
        std::vector<std::int64_t> out(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<std::int64_t>(v[i]);
        return out;
    };
    const auto as_bool = [](const std::vector<double>& v) {
        std::vector<std::uint8_t> out(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] != 0.0;
        return out;
    };
    nb::dict columns;
    columns["rank"] = array_of(std::move(rank));
    columns["combination_id"] = array_of(std::move(id));
    std::vector<std::uint8_t> valid_bytes(valid.begin(), valid.end());
    columns["valid"] = array_of(std::move(valid_bytes));
    std::vector<std::uint8_t> enough_trades_bytes(enough_trades.begin(), enough_trades.end());
    columns["enough_trades"] = array_of(std::move(enough_trades_bytes));
    for (std::size_t p = 0; p < spec.parameters.size(); ++p) {
        const ParameterSpec& parameter = spec.parameters[p];
        if (parameter.type == ParameterType::Int) {
            columns[parameter.name.c_str()] = array_of(as_int64(values[p]));
        } else if (parameter.type == ParameterType::Bool) {
            columns[parameter.name.c_str()] = array_of(as_bool(values[p]));
        } else {
            columns[parameter.name.c_str()] = array_of(std::move(values[p]));
        }
    }
    for (std::size_t m = 0; m < metrics.size(); ++m) {
        const std::string name(metrics[m].name);
        if (metrics[m].integral) {
            columns[name.c_str()] = array_of(as_int64(metric_values[m]));
        } else {
            columns[name.c_str()] = array_of(std::move(metric_values[m]));
        }
    }
    columns["outcome_combinations"] = array_of(std::move(outcome_combinations));
    columns["outcome_first_id"] = array_of(std::move(outcome_first_id));
    return columns;
}

nb::dict SweepTask::result() {
    {
        nb::gil_scoped_release unlocked;
        std::unique_lock lock(mutex_);
        ended_cv_.wait(lock, [this] { return ended_; });
    }
    if (error_) std::rethrow_exception(error_);
    nb::dict out;
    out["notices"] = notices_;
    out["cancelled"] = run_->cancelled;
    if (run_->cancelled) {
        out["cancelled_while"] = run_->cancelled_while;
        return out;
    }
    const SweepRun& run = *run_;
    const StrategySpec& spec = run.strategy.spec;
    const CombinationSpace& space = *run.space;
    out["columns"] = row_columns(run);
    nb::list boolean_columns;
    boolean_columns.append("valid");
    boolean_columns.append("enough_trades");
    for (const ParameterSpec& p : spec.parameters) {
        if (p.type == ParameterType::Bool) boolean_columns.append(p.name);
    }
    out["boolean_columns"] = boolean_columns;

    // The JSON of the command line without its rows (those are the columns).
    std::ostringstream json;
    const std::vector<ResultRow> no_rows;
    write_results_json(json, run.summary, spec, space, RowsInMemory(no_rows), *run.outcomes);
    out["summary_json"] = json.str();
    out["header"] = run.header;
    out["table"] = format_ranked_table(spec, space, run.outcome.top, *run.outcomes, checked_.rank_order(),
                                       static_cast<std::size_t>(checked_.request.top_n));
    if (run.validation) {
        std::ostringstream validation;
        write_validation_json(validation, *run.validation, spec, space, run.spans, run.bars_per_year);
        out["validation_json"] = validation.str();
        out["validation_text"] = format_validation(*run.validation, spec, space, run.spans, run.bars_per_year);
        if (run.validation->walk_forward) {
            std::ostringstream walk_forward;
            write_walk_forward_csv(walk_forward, *run.validation->walk_forward, spec, space, run.spans,
                                   run.bars_per_year);
            out["walk_forward_csv"] = walk_forward.str();
        }
    }
    if (checked_.request.intrabar_bounds) {
        std::ostringstream bounds;
        write_order_bounds_csv(bounds, spec, space, run.order_bounds);
        out["bounds_csv"] = bounds.str();
    }
    out["thread_shortfall"] = run.outcome.thread_shortfall;
    out["run_seconds"] = run_seconds_;
    return out;
}

}  // namespace

void bind_sweep(nb::module_& m) {
    nb::class_<SweepTask>(m, "SweepTask")
        .def(nb::init<nb::dict, std::optional<MarketHandle>>(), nb::arg("options"), nb::arg("market").none())
        .def("wait", &SweepTask::wait, nb::arg("seconds"))
        .def("cancel", &SweepTask::cancel)
        .def("progress", &SweepTask::progress)
        .def("header", &SweepTask::header)
        .def("result", &SweepTask::result);
}

}  // namespace btforge::python

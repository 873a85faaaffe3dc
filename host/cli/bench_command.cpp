#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "host/app/account_choice.h"
#include "host/app/backend_choice.h"
#include "host/app/strategy_choice.h"
#include "host/app/window_choice.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/option_groups.h"
#include "host/cuda/context_warm_up.h"
#include "host/cuda/cuda_backend.h"
#include "host/data/finer_bars.h"
#include "host/data/synthetic_market.h"
#include "host/engine/account_config.h"
#include "host/engine/cpu_sweep.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown CPU";
}

bool same_rows(const std::vector<ResultRow>& a, const std::vector<ResultRow>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].combination_id != b[i].combination_id ||
            std::memcmp(&a[i].metrics, &b[i].metrics, sizeof(Metrics)) != 0) {
            return false;
        }
    }
    return true;
}

struct Timed {
    std::string label;
    std::uint64_t combinations;
    double seconds;
    std::vector<ResultRow> top;
};

// "cuda kernels per device: 2.19 s 2.26 s\n" for several GPUs, else "".
std::string kernels_per_device(const std::vector<double>& seconds) {
    if (seconds.empty()) return "";
    std::ostringstream line;
    line << "cuda kernels per device:";
    for (double s : seconds) line << " " << s << " s";
    line << "\n";
    return line.str();
}

// Writes --chunk-timeline into its transaction and returns the line that says so.
std::string write_chunk_timeline(OutputTransaction& outputs, const std::vector<cuda::ChunkTiming>& timings) {
    std::ostream& out = outputs.stream(0);
    out << "device,first,count,start_s,stop_s\n";
    out.precision(9);
    for (const cuda::ChunkTiming& t : timings) {
        out << t.device << "," << t.first << "," << t.count << "," << t.start_seconds << "," << t.stop_seconds << "\n";
    }
    outputs.commit();
    return "cuda chunk timeline: " + std::to_string(timings.size()) + " launches in " + outputs.destination(0).string() +
           "\n";
}

}  // namespace

int run_bench_command(const std::vector<std::string>& args) {
    StrategyChoice strategy_choice;
    AccountChoice account_choice;
    BackendChoice backend_choice;
    WindowChoice window_choice;
    SyntheticMarketOptions market_options;
    market_options.n_bars = 100'000;
    market_options.n_symbols = 4;
    std::string workload = "standard";
    std::uint64_t max_combinations = 0;
    std::uint64_t cpu_max_combinations = 0;
    bool skip_single_thread = false;
    bool no_funding = false;
    int finer_bars = 0;
    int threads = 0;
    int periods = 0;
    std::string timeline_file;
    po::options_description options("Benchmark (SPEC §10: cells/s = bars x symbols x combinations per second)");
    options.add_options()
        ("strategy", po::value(&strategy_choice.strategy)->default_value(strategy_choice.strategy), "strategy")
        ("workload", po::value(&workload)->default_value(workload),
         "standard: spec/grids/<strategy>_bench.json; large: <strategy>_bench_large.json (embedded)")
        ("grid", po::value(&strategy_choice.grid_file)->value_name("JSON"), "grid file instead of the workload's")
        ("bars", po::value(&market_options.n_bars)->default_value(market_options.n_bars), "synthetic bars")
        ("symbols", po::value(&market_options.n_symbols)->default_value(market_options.n_symbols), "synthetic symbols")
        ("seed", whole_number_value(&market_options.seed), "synthetic seed")
        ("finer-bars", po::value(&finer_bars)->default_value(finer_bars)->value_name("N"),
         "give every bar a synthetic path of N finer bars (60: minutes of an hour; Note [Synthetic finer bars]), "
         "so the sweep settles its ambiguous bars on them: the cost of --intrabar; 0: none")
        ("no-funding", po::bool_switch(&no_funding),
         "every funding rate of the synthetic market 0, as spot data has (Note [Markets without funding])")
        ("max-combinations", whole_number_value(&max_combinations),
         "run only the first N combinations of the grid (0: all)")
        ("cpu-max-combinations", whole_number_value(&cpu_max_combinations),
         "time the CPU on the first N only (0: as many as the backend); cells/s is a rate")
        ("skip-single-thread", po::bool_switch(&skip_single_thread), "do not time the CPU on 1 thread")
        ("periods", po::value(&periods)->default_value(periods),
         ("period statistics per combination, 0.." + std::to_string(kMaxPeriods) +
          ", every run (Note [Period statistics]; their cost is the difference to a run without)").c_str())
        ("threads,j", po::value(&threads)->default_value(0), "CPU threads of the parallel run (0: every CPU this process may run on)")
        ("chunk-timeline", po::value(&timeline_file)->value_name("CSV"),
         "cuda: write each launch of the backend's run (device, first, count, start_s, stop_s) to CSV");
    options.add(backend_options(backend_choice, "cpu|emu|cuda", "cpu"))
        .add(account_options(account_choice))
        .add(window_options(window_choice));
    if (!parse_command_line(args,
                            "Usage: btforge bench [options]\n"
                            "Times sweeps on a fixed synthetic workload: the CPU reference on 1 thread and on all,\n"
                            "and, with --backend emu|cuda, that backend on the same combinations.",
                            options)) {
        return kExitOk;
    }
    if (workload != "standard" && workload != "large") throw po::error("--workload must be standard or large");
    if (periods < 0 || periods > kMaxPeriods) {
        throw po::error("--periods must be in 0.." + std::to_string(kMaxPeriods) + ", got " + std::to_string(periods));
    }
    if (!timeline_file.empty() && backend_choice.name != "cuda") {
        throw po::error("--chunk-timeline times GPU launches: it needs --backend cuda");
    }
    threads = resolve_threads(threads);
    // Note [Outputs checked before work]
    OutputTransaction timeline = open_outputs(
        timeline_file.empty() ? std::vector<NamedFile>{} : std::vector<NamedFile>{{"--chunk-timeline", timeline_file}},
        {}, nullptr);
    LoadedStrategy strategy = load_strategy(strategy_choice);
    Grid grid = load_grid(strategy_choice, strategy.spec, workload == "large" ? "bench_large" : "bench");
    CombinationSpace space(strategy.spec, grid);
    const AccountSpec account = resolve_account(account_choice, strategy.spec, &grid);
    ResolvedBackend backend;
    if (backend_choice.name != "cpu") backend = resolve_backend(backend_choice, strategy.spec.name, threads, say_backend_notice);

    Market market = make_synthetic_market(market_options);
    if (no_funding) std::fill(market.funding_rate.begin(), market.funding_rate.end(), 0.0);
    std::string finer_note;
    if (finer_bars != 0) {
        if (!finer_bars_fit(finer_bars, market_options.bar_ms)) {
            throw po::error("--finer-bars must be 0, or 2 or more dividing the hour (60: 1-minute bars)");
        }
        const Market finer = make_synthetic_finer_bars(market, finer_bars, market_options.bar_ms, market_options.seed, 0);
        finer_note = "finer bars: " + describe_finer_bars(attach_finer_bars(market, finer, "synthetic paths"),
                                                          "synthetic paths") + "\n";
    }
    const MarketWindow window = choose_window(market, window_choice);
    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : grid.axes) values.push_back(axis.values);
    SeriesCache series = SeriesCache::build(strategy.spec, market, values, threads);
    SweepJob job{strategy.binding, &strategy.spec, &space, &market, window, make_account_config(account, market),
                 &series};
    if (window.n_bars < periods) throw po::error("--periods " + std::to_string(periods) + " needs that many bars");
    job.account.n_periods = periods;
    // A backend that computes its own series starts from the plan, inside
    // its end-to-end time (Note [Series on the device]); the cpu backend
    // (--backend auto without a GPU) takes the reference's.
    SeriesCache planned = SeriesCache::plan(strategy.spec, market, values);
    SweepJob backend_job = job;
    if (backend.run && backend_computes_series(backend)) backend_job.series = &planned;

    std::uint64_t combinations = max_combinations == 0 ? space.count() : std::min(space.count(), max_combinations);
    std::uint64_t cpu_combinations =
        cpu_max_combinations == 0 ? combinations : std::min(combinations, cpu_max_combinations);
    double cells_per_combination = static_cast<double>(window.n_bars) * market.n_symbols();
    std::cout << "btforge bench: strategy " << strategy.spec.name << ", grid " << grid.origin << "\n"
              << "account: " << describe_account(account) << "\n"
              << (window == whole_market(market) ? std::string() : "window: " + describe_window(market, window) + "\n")
              << (market.funding_free() ? "funding: none (Note [Markets without funding])\n" : "") << finer_note
              << "workload: " << market.n_symbols() << " symbols x " << window.n_bars << " bars x " << combinations
              << (combinations != space.count() ? " of " + std::to_string(space.count()) : std::string())
              << " combinations = " << cells_per_combination * static_cast<double>(combinations) << " cells"
              << (cpu_combinations != combinations
                      ? " (CPU timed on the first " + std::to_string(cpu_combinations) + ")"
                      : std::string())
              << (periods > 0 ? "\nperiod statistics: " + std::to_string(periods) + " per combination, every run"
                              : std::string())
              << "\nmachine: " << cpu_model() << ", " << hardware_threads_text() << "\n"
              << "indicator series for the CPU runs: " << series.distinct_series() << " built in "
              << series.build_seconds() << " s on " << threads
              << " threads (not in the CPU sweep times; a backend computes its own, inside its time)" << std::endl;
    if (backend.contexts) {
        // Before any timed run, so the CPU's are not disturbed either
        // (Note [Contexts created ahead]).
        backend.contexts->wait();
        std::cout << "cuda contexts: " << backend.contexts->devices() << " created in "
                  << backend.contexts->creation_seconds()
                  << " s, while the market and series were built (not in the timed runs)" << std::endl;
    }

    auto timed = [&](const std::string& label, const std::function<SweepOutcome(const SweepJob&, const SweepOptions&)>& run,
                     int run_threads, std::uint64_t n, const SweepJob& sweep_job) {
        SweepOptions sweep;
        sweep.threads = run_threads;
        sweep.rank_metric = find_metric_column("sharpe");
        sweep.top_n = 10;
        sweep.max_combinations = n;
        SweepOutcome outcome = run(sweep_job, sweep);
        double cells = cells_per_combination * static_cast<double>(n);
        const std::string ran = describe_run(label, outcome);
        std::cout << ran << ": " << outcome.seconds << " s, " << cells / outcome.seconds << " cells/s" << std::endl;
        return Timed{ran, n, outcome.seconds, outcome.top};
    };
    std::vector<Timed> runs;
    if (!skip_single_thread) runs.push_back(timed("cpu 1 thread", &run_cpu_sweep, 1, cpu_combinations, job));
    Timed cpu_all = timed("cpu " + thread_count_text(threads), &run_cpu_sweep, threads, cpu_combinations, job);
    if (!runs.empty() && !same_rows(runs.front().top, cpu_all.top)) {
        std::cout << "FAIL: the top 10 on " << threads << " threads differs from 1 thread\n";
        return kExitFailure;
    }
    if (backend.run) {
        Timed b = timed(backend.description, backend.run, threads, combinations, backend_job);
        double cpu_rate = cells_per_combination * static_cast<double>(cpu_combinations) / cpu_all.seconds;
        double end_to_end = cells_per_combination * static_cast<double>(combinations) / b.seconds;
        if (backend.cuda_stats) {
            const cuda::CudaSweepStats& stats = *backend.cuda_stats;
            double kernel_rate = cells_per_combination * static_cast<double>(combinations) / stats.kernel_seconds;
            std::cout << "cuda kernels only: " << stats.kernel_seconds << " s, " << kernel_rate << " cells/s ("
                      << stats.chunks << " launches of up to " << stats.chunk_size << " combinations"
                      << (stats.wave != 0 ? " (a wave: " + std::to_string(stats.wave) + ")" : std::string())
                      << (stats.balanced_stripe != 0
                              ? ", ordinals in stripes of " + std::to_string(stats.balanced_stripe)
                              : std::string())
                      << "; upload "
                      << stats.upload_seconds << " s)\n"
                      << (stats.indicators_on_device
                              ? "cuda indicators: " + std::to_string(stats.indicator_jobs) +
                                    " series jobs on the device in " + std::to_string(stats.indicator_seconds) +
                                    " s (inside end to end)\n"
                              : std::string("cuda indicators: none in this binary; the CPU's series were uploaded\n"))
                      << "cuda setup (context, module, uploads, indicators; the slowest device): "
                      << stats.setup_seconds << " s, of which context and module " << stats.context_seconds
                      << " s, the chunks' buffers " << stats.allocation_seconds << " s\n"
                      << kernels_per_device(stats.device_kernel_seconds)
                      << (timeline_file.empty() ? std::string() : write_chunk_timeline(timeline, stats.chunk_timings))
                      << "ratio vs cpu " << thread_count_text(threads) << ": end to end " << end_to_end / cpu_rate
                      << "x, kernels only " << kernel_rate / cpu_rate << "x\n";
        } else {
            std::cout << "ratio vs cpu " << thread_count_text(threads) << ": " << end_to_end / cpu_rate << "x\n";
        }
        if (cpu_combinations == combinations) {
            bool same = same_rows(cpu_all.top, b.top);
            std::cout << (same ? "top 10 bit-identical to the CPU reference\n"
                               : "FAIL: the top 10 differs from the CPU reference\n");
            if (!same) return kExitFailure;
        }
    }
    return kExitOk;
}

}  // namespace btforge

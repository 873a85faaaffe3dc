#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/accounting/fee_model.h"
#include "reference/market/market_view.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/fill_log.h"

namespace btforge {

// Note [Strategy bindings]
// The engines know a strategy only through this table: its name, the file of
// spec/ that describes it, the parameter names and indicator ids its kernel
// reads (in the order of its spec) and one entry point taking flat arrays.
// The engine checks the lists against the spec it loaded, so a spec edited
// without its kernel (or the reverse) fails loudly at start-up instead of
// binding a value to the wrong field. Nothing outside reference/, spec/ and
// these bindings knows what a strategy trades on.
struct StrategyBinding {
    using RunFunction = void (*)(const MarketView& market, const double* const* series, const double* params,
                                 const AccountConfig& config, Metrics& out, FillLog* log, double* equity_curve,
                                 PeriodStatistics* periods);

    std::string_view name;       // the spec's "strategy"
    std::string_view spec_file;  // relative to spec/, embedded in the binary
    std::vector<std::string_view> parameters;
    std::vector<std::string_view> series;
    RunFunction run;
    // Its code reads the market's finer bars, so it has kernels of its own
    // for runs that have them (Note [Kernels for finer bars]).
    bool reads_finer_bars = false;
};

// The pair of kernels a run launches: the plain ones, those that read finer
// bars (Note [Kernels for finer bars]: the market has them and the strategy
// reads them) or those that read a mark price (Note [Kernels for a mark
// price]: the market has one). A market never has both.
enum class SweepKernels { plain, finer, mark };
inline SweepKernels sweep_kernels_of(const StrategyBinding& binding, const MarketView& market) {
    if (binding.reads_finer_bars && market.fine_per_bar > 0) return SweepKernels::finer;
    if (market.mark_open != nullptr) return SweepKernels::mark;
    return SweepKernels::plain;
}
// The kernels' name suffix: "", "_finer" or "_mark".
inline const char* sweep_kernels_suffix(SweepKernels kernels) {
    return kernels == SweepKernels::finer ? "_finer" : kernels == SweepKernels::mark ? "_mark" : "";
}

std::span<const StrategyBinding> strategy_bindings();

// What to do about a strategy the binary lacks (Note [Strategy discovery]):
// one sentence for the errors of every backend.
std::string missing_strategy_hint(std::string_view strategy);
const StrategyBinding* find_strategy_binding(std::string_view name);

}  // namespace btforge

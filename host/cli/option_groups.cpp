#include "host/cli/option_groups.h"

#include <utility>

#include "host/backends/kernel_variant.h"
#include "host/cli/command_line.h"
#include "host/spec/account_settings.h"

namespace btforge {

namespace po = boost::program_options;

po::options_description strategy_options(StrategyChoice& c, bool with_grid) {
    po::options_description options("Strategy");
    options.add_options()
        ("strategy", po::value(&c.strategy)->default_value(c.strategy), "strategy built into this binary")
        ("spec", po::value(&c.spec_file)->value_name("JSON"), "strategy spec file (default: the embedded one)");
    if (with_grid) {
        options.add_options()
            ("grid", po::value(&c.grid_file)->value_name("JSON"),
             "grid file (default: the strategy's embedded quickstart grid, or the --param axes alone)")
            ("param", po::value(&c.param_options)->composing()->value_name("NAME=VALUES"),
             "a grid axis (repeatable): NAME=V, NAME=A,B,C, NAME=START:STOP:STEP (stop inclusive) or "
             "NAME=log:START:STOP:NUM; replaces that parameter's axis of --grid; without --grid the other "
             "parameters keep their defaults");
    }
    return options;
}

po::options_description market_options(MarketChoice& c) {
    po::options_description options("Market data (default: the embedded synthetic market)");
    options.add_options()
        ("data", po::value(&c.data_file)->value_name("CSV"),
         "long CSV: timestamp,symbol,open,high,low,close,volume[,funding_rate]")
        ("instruments", po::value(&c.instruments_file)->value_name("JSON"),
         "per-symbol qty_step, min_qty, price_tick")
        ("symbols", po::value(&c.symbols)->value_name("A,B,...")->notifier([](const std::string& list) {
             // An empty list is a mistake (an unset shell variable), not "every symbol".
             if (list.empty()) throw po::error("--symbols needs at least one symbol name (leave it out to load every symbol)");
         }),
         "load only these symbols of --data")
        ("no-market-cache", po::bool_switch()->notifier([&c](bool off) { c.market_cache = !off; }),
         "parse --data every time: neither read nor write DATA.btfcache (Note [Market cache])")
        ("timestamp-unit", po::value(&c.timestamp_unit)->default_value(c.timestamp_unit)->value_name("UNIT"),
         "unit of --data's integer timestamps: s, ms, us, ns, or auto (from their magnitudes)")
        ("funding-file", po::value(&c.funding_file)->value_name("CSV"),
         "funding history: timestamp,symbol,rate per settlement, charged at the bar holding each time; replaces "
         "the data's and the constant funding of the symbols it names")
        ("intrabar", po::value(&c.intrabar_file)->value_name("CSV"),
         "finer bars of the same symbols (1-minute bars beside hourly ones, in --data's format): they settle the "
         "bars whose exits the order of high and low would decide (docs/ACCOUNTING.md §9)")
        ("mark", po::value(&c.mark_file)->value_name("CSV"),
         "the mark price's bars of the same symbols and length, in --data's format (Binance's mark-price klines "
         "through data import): liquidation and the margin read them instead of the last price "
         "(docs/ACCOUNTING.md §5)")
        ("funding-rate", po::value(&c.funding_rate)->default_value(c.funding_rate),
         "rate per funding time where the data has none (|rate| <= 1)")
        ("funding-interval-hours", po::value(&c.funding_interval_hours)->default_value(c.funding_interval_hours),
         "funding times are multiples of this from the epoch (1 minute to 366 days)")
        ("synthetic-seed", whole_number_value(&c.synthetic_seed), "seed of the synthetic market")
        ("synthetic-symbols", po::value(&c.synthetic_symbols)->default_value(c.synthetic_symbols),
         "symbols of the synthetic market")
        ("synthetic-bars", po::value(&c.synthetic_bars)->default_value(c.synthetic_bars),
         "bars of the synthetic market")
        ("synthetic-bar-minutes", po::value(&c.synthetic_bar_minutes)->default_value(c.synthetic_bar_minutes),
         "bar length of the synthetic market");
    return options;
}

po::options_description window_options(WindowChoice& c) {
    po::options_description options("Time window (default: every bar of the market)");
    options.add_options()
        ("from", po::value(&c.from)->value_name("TIME"),
         "first bar evaluated: the first at or after TIME (ISO-8601 UTC or epoch); the bars before it only warm up "
         "the indicators")
        ("to", po::value(&c.to)->value_name("TIME"),
         "end of the window, excluded: the last bar evaluated is the last before TIME");
    return options;
}

po::options_description account_options(AccountChoice& c) {
    po::options_description options("Account (default: the grid's \"account\" block, else the spec's)");
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        const AccountSetting& setting = account_settings()[i];
        const std::string name(setting.option);
        const std::string help = std::string(setting.help) + "; " + std::string(setting.rule);
        options.add_options()(name.c_str(),
                              po::value<double>()
                                  ->value_name(i == 0 ? "CASH" : "FRACTION")
                                  ->notifier([&c, i](double value) { c.overrides.values[i] = value; }),
                              help.c_str());
    }
    options.add_options()("margin-mode", po::value<std::string>(&c.margin_mode)->value_name("MODE"),
                          "cross (one margin balance for the account) or isolated (each position its own); "
                          "Note [Cross and isolated margin]");
    return options;
}

namespace {

// "emu|cuda: emu = ...; cuda = ..." for exactly the backends a command
// takes, in the words of the registry (Note [Backend registry]).
std::string backend_help(const std::string& allowed) {
    std::string help = allowed + ":";
    const std::string listed = "|" + allowed + "|";
    std::string separator = " ";
    for (const BackendEntry& entry : backend_registry()) {
        if (listed.find("|" + std::string(entry.name) + "|") == std::string::npos) continue;
        help += separator + std::string(entry.name) + " = " + std::string(entry.meaning);
        separator = "; ";
    }
    if (listed.find("|auto|") != std::string::npos) help += separator + "auto = cuda when usable, else cpu";
    return help;
}

}  // namespace


po::options_description backend_options(BackendChoice& c, const std::string& allowed, const std::string& default_name) {
    c.name = default_name;
    po::options_description options("Backend");
    options.add_options()
        ("backend", po::value(&c.name)->default_value(default_name), backend_help(allowed).c_str())
        ("device", po::value(&c.device)->default_value(0), "GPU ordinal for cuda (see btforge devices)")
        ("devices", po::value(&c.devices)->value_name("all|0,1,..."),
         "split the sweep over several GPUs (Note [Several GPUs]); replaces --device")
        ("kernels", po::value(&c.kernels_file)->value_name("FILE"),
         "load this PTX/cubin/fatbin instead of the kernels embedded in the binary")
        ("jit", po::bool_switch(&c.jit),
         "cuda: compile the kernel with NVRTC for this exact GPU, folding single-valued parameters into constants; "
         "kept in a disk cache")
        ("jit-cache", po::value(&c.jit_cache)->value_name("DIR"),
         "cache directory for --jit (default $BTFORGE_CACHE_DIR, else $XDG_CACHE_HOME/btforge/jit, else "
         "~/.cache/btforge/jit)")
        ("max-chunk", po::value(&c.max_chunk)->value_name("N")->default_value(c.max_chunk),
         "cuda: combinations per launch at most (progress and cancellation are per launch; less device memory)")
        ("kernel-variant", po::value(&c.kernel_variant)->value_name("NAME")->default_value(c.kernel_variant),
         ("emu and cuda: the generated kernels built for how many symbols, " + list_kernel_variants() +
          "; auto takes the smallest that holds the market")
             .c_str());
    return options;
}

}  // namespace btforge

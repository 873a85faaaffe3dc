#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/sweep_run.h"
#include "host/io/sha256.h"
#include "host/report/shard_file.h"
#include "host/spec/account_settings.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

struct LoadedShard {
    std::string file;
    ShardFile content;
    std::uint64_t index = 0;
    std::uint64_t count = 0;
    std::uint64_t first = 0;
    std::uint64_t end = 0;
};

// The first key of `a` whose value differs in `b`, for the refusal's words.
std::string first_difference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
    for (const auto& [key, value] : a.items()) {
        if (!b.contains(key) || b[key] != value) return key;
    }
    for (const auto& [key, value] : b.items()) {
        if (!a.contains(key)) return key;
    }
    return "";
}

// Note [Shards]: every shard of one run, each once, covering the run order.
std::vector<LoadedShard> load_shards(const std::vector<std::string>& files) {
    std::vector<LoadedShard> shards;
    for (const std::string& file : files) {
        LoadedShard shard;
        shard.file = file;
        shard.content = read_shard_file(file);
        const nlohmann::ordered_json& s = shard.content.header.at("shard");
        shard.index = s.at("index").get<std::uint64_t>();
        shard.count = s.at("count").get<std::uint64_t>();
        shard.first = s.at("first_ordinal").get<std::uint64_t>();
        shard.end = s.at("end_ordinal").get<std::uint64_t>();
        if (!shards.empty()) {
            const nlohmann::ordered_json& want = shards.front().content.header.at("identity");
            const nlohmann::ordered_json& have = shard.content.header.at("identity");
            if (want != have) {
                const std::string key = first_difference(want, have);
                throw std::runtime_error(file + " is a shard of another run than " + shards.front().file + ": its " +
                                         key + " is " + have.value(key, nlohmann::ordered_json()).dump() + ", not " +
                                         want.value(key, nlohmann::ordered_json()).dump());
            }
        }
        shards.push_back(std::move(shard));
    }
    std::sort(shards.begin(), shards.end(), [](const LoadedShard& a, const LoadedShard& b) { return a.index < b.index; });
    const std::uint64_t count = shards.front().count;
    std::map<std::uint64_t, const LoadedShard*> by_index;
    for (const LoadedShard& shard : shards) {
        const auto [it, fresh] = by_index.emplace(shard.index, &shard);
        if (!fresh) {
            throw std::runtime_error("shard " + std::to_string(shard.index) + "/" + std::to_string(count) +
                                     " is given twice: " + it->second->file + " and " + shard.file);
        }
    }
    std::string missing;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (by_index.count(i) == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(count);
    }
    if (!missing.empty()) throw std::runtime_error("the run has " + std::to_string(count) + " shards; missing: " + missing);
    for (std::size_t i = 1; i < shards.size(); ++i) {
        if (shards[i].first != shards[i - 1].end) {
            throw std::runtime_error(shards[i].file + " starts at combination " + std::to_string(shards[i].first) +
                                     ", not where " + shards[i - 1].file + " ends (" + std::to_string(shards[i - 1].end) + ")");
        }
    }
    return shards;
}

}  // namespace

int run_merge_command(const std::vector<std::string>& args) {
    std::string output = "btforge-sweep";
    int threads = 0;
    std::vector<std::string> files;
    po::options_description options("Merge");
    options.add_options()
        ("output,o", po::value(&output)->default_value(output), "results go to OUTPUT.csv and OUTPUT.json")
        ("threads,j", po::value(&threads)->default_value(threads), "threads of the validation (0: all)");
    if (!parse_command_line(args,
                            "Usage: btforge merge SHARD... [-o OUTPUT]\n"
                            "Puts the shards of one `btforge sweep --shard i/N` run together and writes what one\n"
                            "process would have written (Note [Shards]).",
                            options, nullptr, &files)) {
        return kExitOk;
    }
    if (files.empty()) throw po::error("give the shard files (OUTPUT.shard of each btforge sweep --shard i/N)");
    if (output.empty() || output.back() == '/') {
        throw po::error("--output '" + output + "': expected a file name without extension");
    }
    install_interrupt_handler();
    const std::vector<LoadedShard> shards = load_shards(files);
    const nlohmann::ordered_json& head = shards.front().content.header;
    const nlohmann::ordered_json& identity = head.at("identity");
    const nlohmann::ordered_json& inputs = head.at("inputs");

    // The run's request again, from the shards' identity and inputs.
    SweepRequest request;
    request.strategy.strategy = inputs.value("strategy", std::string("default"));
    request.strategy.spec_file = inputs.value("spec", std::string());
    request.strategy.grid_file = inputs.value("grid", std::string());
    request.strategy.grid_text = inputs.value("grid_text", std::string());
    request.strategy.grid_text_origin = inputs.value("grid_text_origin", std::string("<grid>"));
    if (inputs.contains("param")) request.strategy.param_options = inputs["param"].get<std::vector<std::string>>();
    request.rank_by = identity.at("rank_by").get<std::string>();
    request.top_n = identity.at("top").get<long long>();
    request.all_rows = identity.at("all_rows").get<bool>();
    request.periods = identity.at("periods").get<int>();
    request.pbo = identity.at("pbo").get<bool>();
    request.walk_forward = identity.at("walk_forward").get<std::string>();
    request.threads = threads;
    const CheckedSweepRequest checked = check_sweep_request(request);
    const LoadedStrategy strategy = load_strategy(request.strategy);
    if (sha256_hex(strategy.spec_text) != identity.at("spec_sha256").get<std::string>()) {
        throw std::runtime_error("the spec " + strategy.spec.origin + " is not the one the shards ran (it changed since)");
    }
    const Grid grid = load_grid(request.strategy, strategy.spec);
    const CombinationSpace space(strategy.spec, grid);
    if (space.count() != identity.at("combinations").get<std::uint64_t>()) {
        throw std::runtime_error("the grid " + grid.origin + " has " + std::to_string(space.count()) +
                                 " combinations; the shards ran " + identity.at("combinations").dump());
    }

    std::vector<NamedFile> inputs_named;
    for (const std::string& file : files) inputs_named.push_back({"SHARD", file});
    OutputTransaction outputs = open_outputs(result_files(output, checked), inputs_named, &interrupt_requested());

    // Rows: the same total order as one process (Note [Deterministic ranking]).
    const MetricColumn& metric = *checked.metric;
    std::uint64_t kept = 0;
    for (const LoadedShard& shard : shards) kept += shard.content.rows.size();
    TopN top(metric, request.all_rows ? static_cast<std::size_t>(kept) : static_cast<std::size_t>(request.top_n));
    std::vector<PeriodStatistics> periods;
    for (const LoadedShard& shard : shards) {
        for (const ResultRow& row : shard.content.rows) top.offer(row);
        periods.insert(periods.end(), shard.content.periods.begin(), shard.content.periods.end());
    }
    const std::vector<ResultRow> ranked = top.sorted();

    std::optional<SweepValidation> validation;
    PeriodSpans spans;
    for (const auto& span : head.at("spans")) spans.emplace_back(span.at(0).get<std::string>(), span.at(1).get<std::string>());
    const double bars_per_year = head.at("bars_per_year").get<double>();
    if (request.periods > 0) {
        std::vector<std::uint64_t> ids;
        for (std::size_t i = 0; i < std::min<std::size_t>(ranked.size(), 10); ++i) ids.push_back(ranked[i].combination_id);
        SweepHooks hooks;
        hooks.cancel = &interrupt_requested();
        hooks.progress_on_stderr = true;
        validation = validate_rows(checked, periods, space.count(), rows_of(space, ids), nullptr, hooks);
        if (validation->pbo && validation->pbo->cancelled) {
            std::cerr << "btforge merge: interrupted while computing the probability of backtest overfitting; no "
                         "result file written\n";
            return kExitInterrupted;
        }
    }

    RunSummary summary;
    const nlohmann::ordered_json& s = head.at("summary");
    summary.strategy = strategy.spec.name;
    summary.spec_origin = s.at("spec").get<std::string>();
    summary.grid_origin = s.at("grid").get<std::string>();
    summary.market = s.at("market").get<std::string>();
    summary.timestamps = s.at("timestamps").get<std::string>();
    summary.funding = s.at("funding").get<std::string>();
    summary.window.first_time = s.at("window").at("first_time").get<std::string>();
    summary.window.last_time = s.at("window").at("last_time").get<std::string>();
    summary.window.first_bar = identity.at("window").at("first_bar").get<int>();
    summary.window.n_bars = identity.at("window").at("bars").get<int>();
    summary.combinations = space.count();
    for (const LoadedShard& shard : shards) {
        const nlohmann::ordered_json& part = shard.content.header.at("summary");
        summary.invalid_rows += part.at("invalid_rows").get<std::uint64_t>();
        summary.cells += part.at("cells").get<std::uint64_t>();
        summary.seconds += part.at("seconds").get<double>();
    }
    summary.backend = std::to_string(shards.size()) + " shards merged; shard 0 ran on " + s.at("backend").get<std::string>();
    summary.rank_by = request.rank_by;
    for (const AccountSetting& setting : account_settings()) {
        summary.account.*(setting.field) = identity.at("account").at(std::string(setting.key)).get<double>();
    }
    summary.account.margin_mode = *parse_margin_mode(identity.at("account").at("margin_mode").get<std::string>());
    summary.inputs = inputs;
    const RowsInMemory rows(ranked);
    write_result_files(outputs, summary, strategy.spec, space, rows, validation, spans, bars_per_year);
    outputs.commit();  // Note [Outputs committed together]
    std::cout << format_ranked_table(strategy.spec, space, ranked, metric, static_cast<std::size_t>(request.top_n));
    std::cout << "\nmerged " << shards.size() << " shards: " << summary.combinations << " combinations, "
              << summary.cells << " cells in " << summary.seconds << " s of the shards' sweeps\n";
    if (validation) std::cout << format_validation(*validation, strategy.spec, space, spans, bars_per_year);
    std::cout << describe_result_files(output, checked, ranked.size());
    return kExitOk;
}

}  // namespace btforge

#include "host/cli/shard_merge.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "host/cli/command_line.h"
#include "host/cli/interrupt.h"
#include "host/io/sha256.h"
#include "host/spec/account_settings.h"

namespace btforge {

std::vector<NamedShard> check_shards(std::vector<NamedShard> shards) {
    if (shards.empty()) throw std::runtime_error("no shards to merge");
    const auto range = [](const NamedShard& shard, const char* key) {
        return shard.content.header.at("shard").at(key).get<std::uint64_t>();
    };
    const nlohmann::ordered_json& want = shards.front().content.header.at("identity");
    for (const NamedShard& shard : shards) {
        const nlohmann::ordered_json& have = shard.content.header.at("identity");
        if (want != have) {
            const std::string key = identity_difference(want, have);
            throw std::runtime_error(shard.name + " is a shard of another run than " + shards.front().name + ": its " +
                                     key + " is " + have.value(key, nlohmann::ordered_json()).dump() + ", not " +
                                     want.value(key, nlohmann::ordered_json()).dump());
        }
    }
    std::stable_sort(shards.begin(), shards.end(), [&](const NamedShard& a, const NamedShard& b) {
        return range(a, "index") < range(b, "index");
    });
    const std::uint64_t count = range(shards.front(), "count");
    std::map<std::uint64_t, const NamedShard*> by_index;
    for (const NamedShard& shard : shards) {
        const auto [it, fresh] = by_index.emplace(range(shard, "index"), &shard);
        if (!fresh) {
            throw std::runtime_error("shard " + std::to_string(range(shard, "index")) + "/" + std::to_string(count) +
                                     " is given twice: " + it->second->name + " and " + shard.name);
        }
    }
    std::string missing;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (by_index.count(i) == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(count);
    }
    if (!missing.empty()) throw std::runtime_error("the run has " + std::to_string(count) + " shards; missing: " + missing);
    for (std::size_t i = 1; i < shards.size(); ++i) {
        if (range(shards[i], "first_ordinal") != range(shards[i - 1], "end_ordinal")) {
            throw std::runtime_error(shards[i].name + " starts at combination " +
                                     std::to_string(range(shards[i], "first_ordinal")) + ", not where " +
                                     shards[i - 1].name + " ends (" + std::to_string(range(shards[i - 1], "end_ordinal")) +
                                     ")");
        }
    }
    return shards;
}

CheckedSweepRequest request_of_shards(const NamedShard& shard, int threads) {
    const nlohmann::ordered_json& identity = shard.content.header.at("identity");
    const nlohmann::ordered_json& inputs = shard.content.header.at("inputs");
    SweepRequest request;
    request.strategy.strategy = inputs.value("strategy", std::string("default"));
    request.strategy.spec_file = inputs.value("spec", std::string());
    request.strategy.grid_file = inputs.value("grid", std::string());
    request.strategy.grid_text = inputs.value("grid_text", std::string());
    request.strategy.grid_text_origin = inputs.value("grid_text_origin", std::string("<grid>"));
    if (inputs.contains("param")) request.strategy.param_options = inputs["param"].get<std::vector<std::string>>();
    request.rank_by = identity.at("rank_by").get<std::string>();
    request.min_trades = identity.at("min_trades").get<int>();
    request.top_n = identity.at("top").get<long long>();
    request.all_rows = identity.at("all_rows").get<bool>();
    request.periods = identity.at("periods").get<int>();
    request.pbo = identity.at("pbo").get<bool>();
    request.walk_forward = identity.at("walk_forward").get<std::string>();
    request.threads = threads;
    return check_sweep_request(request);
}

namespace {

// What one process would have: the rows ranked by the same total order
// (Note [Deterministic ranking]), the validation over the union of the
// period statistics, the summary. Not movable (the space refers to the spec
// and the grid).
struct MergedSweep {
    MergedSweep() = default;
    MergedSweep(const MergedSweep&) = delete;
    MergedSweep& operator=(const MergedSweep&) = delete;

    LoadedStrategy strategy;
    std::optional<Grid> grid;
    std::optional<CombinationSpace> space;
    std::vector<ResultRow> ranked;
    std::optional<SweepValidation> validation;
    PeriodSpans spans;
    double bars_per_year = 0.0;
    RunSummary summary;
    std::uint64_t shards = 0;
    bool cancelled = false;  // the validation was interrupted (hooks.cancel)
};

std::unique_ptr<MergedSweep> merge_shards(const std::vector<NamedShard>& shards, const CheckedSweepRequest& checked,
                                          const std::string& what, const SweepHooks& hooks) {
    const SweepRequest& request = checked.request;
    const nlohmann::ordered_json& head = shards.front().content.header;
    const nlohmann::ordered_json& identity = head.at("identity");
    auto merged = std::make_unique<MergedSweep>();
    merged->shards = shards.size();
    merged->strategy = load_strategy(request.strategy);
    const StrategySpec& spec = merged->strategy.spec;
    if (sha256_hex(merged->strategy.spec_text) != identity.at("spec_sha256").get<std::string>()) {
        throw std::runtime_error("the spec " + spec.origin + " is not the one the shards ran (it changed since)");
    }
    merged->grid = load_grid(request.strategy, spec);
    merged->space.emplace(spec, *merged->grid);
    const CombinationSpace& space = *merged->space;
    if (space.count() != identity.at("combinations").get<std::uint64_t>()) {
        throw std::runtime_error("the grid " + merged->grid->origin + " has " + std::to_string(space.count()) +
                                 " combinations; the shards ran " + identity.at("combinations").dump());
    }

    // Rows: the same total order as one process (Note [Deterministic ranking]).
    std::uint64_t kept = 0;
    for (const NamedShard& shard : shards) kept += shard.content.rows.size();
    TopN top(checked.rank_order(), request.all_rows ? static_cast<std::size_t>(kept) : static_cast<std::size_t>(request.top_n));
    std::vector<PeriodStatistics> periods;
    for (const NamedShard& shard : shards) {
        for (const ResultRow& row : shard.content.rows) top.offer(row);
        periods.insert(periods.end(), shard.content.periods.begin(), shard.content.periods.end());
    }
    merged->ranked = top.sorted();

    for (const auto& span : head.at("spans")) {
        merged->spans.emplace_back(span.at(0).get<std::string>(), span.at(1).get<std::string>());
    }
    merged->bars_per_year = head.at("bars_per_year").get<double>();
    if (request.periods > 0) {
        std::vector<std::uint64_t> ids;
        for (std::size_t i = 0; i < std::min<std::size_t>(merged->ranked.size(), 10); ++i) {
            ids.push_back(merged->ranked[i].combination_id);
        }
        merged->validation = validate_rows(checked, periods, space.count(), rows_of(space, ids), nullptr, hooks);
        if (merged->validation->pbo && merged->validation->pbo->cancelled) {
            merged->cancelled = true;
            return merged;
        }
    }

    RunSummary& summary = merged->summary;
    const nlohmann::ordered_json& s = head.at("summary");
    summary.strategy = spec.name;
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
    for (const NamedShard& shard : shards) {
        const nlohmann::ordered_json& part = shard.content.header.at("summary");
        summary.invalid_rows += part.at("invalid_rows").get<std::uint64_t>();
        summary.cells += part.at("cells").get<std::uint64_t>();
        summary.seconds += part.at("seconds").get<double>();
    }
    summary.backend = what + "; shard 0 ran on " + s.at("backend").get<std::string>();
    summary.rank_by = request.rank_by;
    summary.min_trades = request.min_trades;
    for (const AccountSetting& setting : account_settings()) {
        summary.account.*(setting.field) = identity.at("account").at(std::string(setting.key)).get<double>();
    }
    summary.account.margin_mode = *parse_margin_mode(identity.at("account").at("margin_mode").get<std::string>());
    summary.inputs = head.at("inputs");
    return merged;
}

}  // namespace

int merge_and_write(const std::vector<NamedShard>& shards, const CheckedSweepRequest& request,
                    const std::string& what, OutputTransaction& outputs, const std::string& output,
                    const std::string& command) {
    SweepHooks hooks;
    hooks.cancel = &interrupt_requested();
    hooks.progress_on_stderr = true;
    const std::unique_ptr<MergedSweep> merged = merge_shards(shards, request, what, hooks);
    if (merged->cancelled) {
        std::cerr << command << ": interrupted while computing the probability of backtest overfitting; no result "
                  << "file written\n";
        return kExitInterrupted;
    }
    const StrategySpec& spec = merged->strategy.spec;
    const CombinationSpace& space = *merged->space;
    write_result_files(outputs, merged->summary, spec, space, RowsInMemory(merged->ranked), merged->validation,
                       merged->spans, merged->bars_per_year);
    outputs.commit();  // Note [Outputs committed together]
    std::cout << format_ranked_table(spec, space, merged->ranked, request.rank_order(),
                                     static_cast<std::size_t>(request.request.top_n));
    std::cout << "\n" << merged->summary.backend << ": " << merged->summary.combinations << " combinations, "
              << merged->summary.cells << " cells in " << merged->summary.seconds << " s of the shards' sweeps\n";
    if (merged->validation) {
        std::cout << format_validation(*merged->validation, spec, space, merged->spans, merged->bars_per_year);
    }
    std::cout << describe_result_files(output, request, merged->ranked.size());
    return kExitOk;
}

}  // namespace btforge

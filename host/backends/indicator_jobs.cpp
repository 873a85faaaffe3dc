#include "host/backends/indicator_jobs.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "generated/btforge_entry_points.h"
#include "host/indicators/aligned_series.h"
#include "host/indicators/indicator_registry.h"

namespace btforge {

namespace {

#define BTFORGE_INDICATOR_NAME(name) #name,
constexpr std::string_view kGeneratedIndicators[] = {BTFORGE_FOR_EACH_INDICATOR(BTFORGE_INDICATOR_NAME)};
#undef BTFORGE_INDICATOR_NAME

device::IndicatorJob make_job(const SeriesKey& key, std::string_view indicator, int symbol, int output,
                              long long series_offset) {
    const int kind = indicator_kind(indicator);
    if (kind < 0) {
        throw std::logic_error("generated/ has no GPU kernel for indicator '" + std::string(indicator) +
                               "': add it to \"indicators\" in spec/generator.json and regenerate");
    }
    if (key.args.size() > static_cast<std::size_t>(device::kIndicatorMaxArgs)) {
        throw std::logic_error(std::string(indicator) + " takes " + std::to_string(key.args.size()) +
                               " parameters; generated/ allows " + std::to_string(device::kIndicatorMaxArgs));
    }
    device::IndicatorJob job{};
    job.kind = kind;
    job.symbol = symbol;
    job.output = output;
    // The price array a one-input kernel reads (Note [Indicator input column]).
    job.input = static_cast<int>(resolve_input_column(*find_indicator(indicator), key.input));
    for (std::size_t a = 0; a < key.args.size(); ++a) job.args[a] = key.args[a];
    job.series_offset = series_offset;
    return job;
}

}  // namespace

int indicator_kind(std::string_view indicator) {
    for (std::size_t k = 0; k < std::size(kGeneratedIndicators); ++k) {
        if (kGeneratedIndicators[k] == indicator) return static_cast<int>(k);
    }
    return -1;
}

std::size_t IndicatorJobs::gather_threads() const {
    const std::size_t chunks = (static_cast<std::size_t>(n_bars) + device::kGatherChunk - 1) / device::kGatherChunk;
    return static_cast<std::size_t>(n_symbols) * device::kPriceArrays * chunks;
}

std::size_t IndicatorJobs::scratch_per_job() const {
    return static_cast<std::size_t>(device::kIndicatorMaxOutputs) * static_cast<std::size_t>(n_bars);
}

std::vector<std::pair<std::size_t, std::size_t>> IndicatorJobs::batches(std::size_t max_scratch_bytes) const {
    const std::size_t per_job = std::max<std::size_t>(1, scratch_per_job() * sizeof(double));
    const std::size_t size = std::max<std::size_t>(1, max_scratch_bytes / per_job);
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t begin = 0; begin < jobs.size(); begin += size) out.emplace_back(begin, std::min(jobs.size(), begin + size));
    return out;
}

IndicatorJobs plan_indicator_jobs(const SeriesCache& plan, const Market& market) {
    if (market.own_bars.size() != static_cast<std::size_t>(market.n_symbols())) {
        throw std::invalid_argument("market has no own_bars for every symbol");
    }
    IndicatorJobs out;
    out.n_symbols = market.n_symbols();
    out.n_bars = market.n_bars();
    out.series_length = static_cast<std::size_t>(out.n_symbols) * static_cast<std::size_t>(out.n_bars);
    out.own_begin.push_back(0);
    for (const std::vector<int>& bars : market.own_bars) {
        out.own_bars.insert(out.own_bars.end(), bars.begin(), bars.end());
        out.own_begin.push_back(static_cast<int>(out.own_bars.size()));
    }
    const std::vector<SeriesKey>& keys = plan.keys();
    out.distinct_series = keys.size();
    out.series_slots = keys.size();
    const long long length = static_cast<long long>(out.series_length);
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const SeriesKey& key = keys[k];
        const int output = validate_series_request(key.indicator, key.output, key.args, key.input);
        const IndicatorDescriptor& desc = *find_indicator(key.indicator);
        if (!desc.cross_symbol) {
            for (int s = 0; s < out.n_symbols; ++s) {
                out.jobs.push_back(make_job(key, key.indicator, s, output,
                                            static_cast<long long>(k) * length + static_cast<long long>(s) * out.n_bars));
            }
            continue;
        }
        // BREADTH(period): EMA(period) of every symbol, then the reduction
        // (the order of compute_aligned_series).
        const long long ema_slot = static_cast<long long>(out.series_slots++);
        for (int s = 0; s < out.n_symbols; ++s) {
            out.jobs.push_back(make_job(key, "EMA", s, 0, ema_slot * length + static_cast<long long>(s) * out.n_bars));
        }
        out.breadth.push_back(device::BreadthJob{ema_slot * length, static_cast<long long>(k) * length});
    }
    return out;
}

}  // namespace btforge

#include "host/indicators/aligned_series.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "host/indicators/indicator_registry.h"
#include "reference/indicators/breadth.h"
#include "reference/indicators/own_bars.h"

namespace btforge {
namespace {

const std::vector<double>& price_array(const Market& market, PriceInput input) {
    switch (input) {
        case PriceInput::open: return market.open;
        case PriceInput::high: return market.high;
        case PriceInput::low: return market.low;
        case PriceInput::close: return market.close;
        case PriceInput::volume: return market.volume;
    }
    throw std::logic_error("unknown price input");
}

// One output of a single-series indicator for every symbol, held across gaps.
// `source` is the column read for the indicator's first input (its own, or
// the one a spec named: Note [Indicator input column]).
std::vector<double> per_symbol_series(const Market& market, const IndicatorDescriptor& desc, int output_index,
                                      std::span<const double> params, PriceInput source) {
    const std::size_t n_bars = static_cast<std::size_t>(market.n_bars());
    std::vector<double> result(static_cast<std::size_t>(market.n_symbols()) * n_bars,
                               std::numeric_limits<double>::quiet_NaN());
    for (int s = 0; s < market.n_symbols(); ++s) {
        const std::vector<int>& bars = market.own_bars[static_cast<std::size_t>(s)];
        const std::size_t n = bars.size();
        // Gather only the inputs the indicator reads; the others stay null.
        std::vector<std::vector<double>> gathered(5);
        PriceSeries series;
        series.n = static_cast<int>(n);
        for (PriceInput input : desc.inputs) {
            std::vector<double>& dst = gathered[static_cast<std::size_t>(input)];
            dst.resize(n);
            const PriceInput column = input == desc.inputs.front() ? source : input;
            gather_own_bars(price_array(market, column).data() + market.index(s, 0), bars.data(), series.n, dst.data());
            const double* data = dst.data();
            switch (input) {
                case PriceInput::open: series.open = data; break;
                case PriceInput::high: series.high = data; break;
                case PriceInput::low: series.low = data; break;
                case PriceInput::close: series.close = data; break;
                case PriceInput::volume: series.volume = data; break;
            }
        }
        std::vector<std::vector<double>> outs(desc.outputs.size(), std::vector<double>(n));
        std::vector<double*> out_ptrs;
        for (auto& o : outs) out_ptrs.push_back(o.data());
        compute_indicator(desc, params, series, out_ptrs);

        hold_across_gaps(outs[static_cast<std::size_t>(output_index)].data(), bars.data(), series.n, market.n_bars(),
                         result.data() + market.index(s, 0));
    }
    return result;
}

}  // namespace

int validate_series_request(std::string_view indicator, std::string_view output, std::span<const double> params,
                            std::string_view input) {
    const IndicatorDescriptor* desc = find_indicator(indicator);
    if (desc == nullptr) throw std::invalid_argument("unknown indicator '" + std::string(indicator) + "'");
    const int output_index = find_output(*desc, output);
    if (output_index < 0) {
        std::string known;
        for (auto o : desc->outputs) known += (known.empty() ? "" : ", ") + std::string(o);
        throw std::invalid_argument(std::string(desc->name) + ": unknown output '" + std::string(output) +
                                    "' (outputs: " + known + ")");
    }
    validate_indicator_params(*desc, params);
    resolve_input_column(*desc, input);
    return output_index;
}

std::vector<double> compute_aligned_series(const Market& market, std::string_view indicator, std::string_view output,
                                           std::span<const double> params, std::string_view input) {
    const int output_index = validate_series_request(indicator, output, params, input);
    const IndicatorDescriptor* desc = find_indicator(indicator);
    if (market.own_bars.size() != static_cast<std::size_t>(market.n_symbols())) {
        throw std::invalid_argument("market has no own_bars for every symbol");
    }
    if (!desc->cross_symbol) {
        return per_symbol_series(market, *desc, output_index, params, resolve_input_column(*desc, input));
    }

    // BREADTH: EMA of every symbol's close, then the cross-symbol reduction.
    const std::vector<double> ema = per_symbol_series(market, *find_indicator("EMA"), 0, params, PriceInput::close);
    const MarketView view = market.view();
    std::vector<double> per_bar(static_cast<std::size_t>(market.n_bars()));
    breadth_compute(view, ema.data(), per_bar.data());
    std::vector<double> result(ema.size());
    for (int s = 0; s < market.n_symbols(); ++s) {
        for (int t = 0; t < market.n_bars(); ++t) result[market.index(s, t)] = per_bar[static_cast<std::size_t>(t)];
    }
    return result;
}

}  // namespace btforge

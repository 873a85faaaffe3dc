#include "host/indicators/indicator_registry.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "host/io/number_format.h"
#include "reference/indicators/adx.h"
#include "reference/indicators/atr.h"
#include "reference/indicators/bbands.h"
#include "reference/indicators/breadth.h"
#include "reference/indicators/cci.h"
#include "reference/indicators/ema.h"
#include "reference/indicators/kama.h"
#include "reference/indicators/macd.h"
#include "reference/indicators/max.h"
#include "reference/indicators/mfi.h"
#include "reference/indicators/min.h"
#include "reference/indicators/minus_di.h"
#include "reference/indicators/obv.h"
#include "reference/indicators/plus_di.h"
#include "reference/indicators/roc.h"
#include "reference/indicators/rsi.h"
#include "reference/indicators/sma.h"
#include "reference/indicators/stoch.h"
#include "reference/indicators/willr.h"
#include "reference/indicators/wma.h"

namespace btforge {
namespace {

// Note [Parameter domains] (indicator_registry.h).
constexpr double kMaxPeriod = 100000;
constexpr double kMaxReal = 3e37;  // TA-Lib's TA_REAL_MAX; TA_REAL_MIN is its negative

int p(std::span<const double> params, std::size_t i) { return static_cast<int>(params[i]); }

using Params = std::span<const double>;
using Outputs = std::span<double* const>;
constexpr PriceInput kHigh = PriceInput::high;
constexpr PriceInput kLow = PriceInput::low;
constexpr PriceInput kClose = PriceInput::close;
constexpr PriceInput kVolume = PriceInput::volume;

std::vector<IndicatorDescriptor> build_catalog() {
    const IndicatorParam period1{"period", true, 1, kMaxPeriod};
    const IndicatorParam period2{"period", true, 2, kMaxPeriod};
    std::vector<IndicatorDescriptor> c;
    c.push_back({"SMA", {period1}, {"value"}, {kClose}, false, [](Params a) { return sma_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { sma_compute(s.close, s.n, p(a, 0), o[0]); },
                 "lookback period-1; the mean of the last period values"});
    c.push_back({"EMA", {period1}, {"value"}, {kClose}, false, [](Params a) { return ema_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { ema_compute(s.close, s.n, p(a, 0), o[0]); },
                 "lookback period-1; seeded by the mean of the first period values, then prev + (x - prev) * 2/(period+1)"});
    c.push_back({"WMA", {period1}, {"value"}, {kClose}, false, [](Params a) { return wma_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { wma_compute(s.close, s.n, p(a, 0), o[0]); },
                 "lookback period-1; weights 1..period over the last period values, the current bar heaviest"});
    c.push_back({"KAMA", {period1}, {"value"}, {kClose}, false, [](Params a) { return kama_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { kama_compute(s.close, s.n, p(a, 0), o[0]); },
                 "lookback period; Kaufman's efficiency ratio over period bars sets the smoothing; seeded by the value of the bar before its first output"});
    c.push_back({"RSI", {period2}, {"value"}, {kClose}, false, [](Params a) { return rsi_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { rsi_compute(s.close, s.n, p(a, 0), o[0]); },
                 "lookback period; Wilder averages of the gains and losses; 100*g/(g+l), 0 when both are 0"});
    c.push_back({"MACD",
                 {{"fast", true, 2, kMaxPeriod}, {"slow", true, 2, kMaxPeriod}, {"signal", true, 1, kMaxPeriod}},
                 {"macd", "signal", "hist"},
                 {kClose},
                 false,
                 [](Params a) { return macd_lookback(p(a, 0), p(a, 1), p(a, 2)); },
                 [](Params a, const PriceSeries& s, Outputs o) { macd_compute(s.close, s.n, p(a, 0), p(a, 1), p(a, 2), o[0], o[1], o[2]); },
                 "lookback slow-1 + signal-1; macd = EMA(fast) - EMA(slow), signal = EMA(signal) of macd, hist = macd - signal"});
    c.push_back({"BBANDS",
                 {period2, {"k", false, -kMaxReal, kMaxReal}},
                 {"upper", "middle", "lower"},
                 {kClose},
                 false,
                 [](Params a) { return bbands_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { bbands_compute(s.close, s.n, p(a, 0), a[1], o[0], o[1], o[2]); },
                 "lookback period-1; middle = SMA(period), upper/lower = middle +- k * population standard deviation (a negative k swaps the bands)"});
    c.push_back({"ATR", {period1}, {"value"}, {kHigh, kLow, kClose}, false, [](Params a) { return atr_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { atr_compute(s.high, s.low, s.close, s.n, p(a, 0), o[0]); },
                 "lookback period; true range (needs the previous close) from bar 1, Wilder average"});
    c.push_back(
        {"PLUS_DI", {period1}, {"value"}, {kHigh, kLow, kClose}, false, [](Params a) { return plus_di_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { plus_di_compute(s.high, s.low, s.close, s.n, p(a, 0), o[0]); },
                 "lookback period; 100 * Wilder sum of +DM / Wilder sum of true range"});
    c.push_back(
        {"MINUS_DI", {period1}, {"value"}, {kHigh, kLow, kClose}, false, [](Params a) { return minus_di_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { minus_di_compute(s.high, s.low, s.close, s.n, p(a, 0), o[0]); },
                 "lookback period; 100 * Wilder sum of -DM / Wilder sum of true range"});
    c.push_back({"ADX", {period2}, {"value"}, {kHigh, kLow, kClose}, false, [](Params a) { return adx_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { adx_compute(s.high, s.low, s.close, s.n, p(a, 0), o[0]); },
                 "lookback 2*period-1; Wilder average of DX = 100*|+DI - -DI|/(+DI + -DI)"});
    c.push_back({"STOCH",
                 {{"fastk", true, 1, kMaxPeriod}, {"slowk", true, 1, kMaxPeriod}, {"slowd", true, 1, kMaxPeriod}},
                 {"slowk", "slowd"},
                 {kHigh, kLow, kClose},
                 false,
                 [](Params a) { return stoch_lookback(p(a, 0), p(a, 1), p(a, 2)); },
                 [](Params a, const PriceSeries& s, Outputs o) { stoch_compute(s.high, s.low, s.close, s.n, p(a, 0), p(a, 1), p(a, 2), o[0], o[1]); },
                 "lookback fastk-1 + slowk-1 + slowd-1; fastK = 100*(close - lowest low)/(highest high - lowest low) over the last fastk bars, the current bar included (0 when the range is 0); slowk = SMA(slowk) of fastK, slowd = SMA(slowd) of slowk"});
    c.push_back({"CCI", {period2}, {"value"}, {kHigh, kLow, kClose}, false, [](Params a) { return cci_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { cci_compute(s.high, s.low, s.close, s.n, p(a, 0), o[0]); },
                 "lookback period-1; (typical price - its mean)/(0.015 * mean deviation) over the last period bars, typical price = (high+low+close)/3"});
    c.push_back(
        {"MFI", {period2}, {"value"}, {kHigh, kLow, kClose, kVolume}, false, [](Params a) { return mfi_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { mfi_compute(s.high, s.low, s.close, s.volume, s.n, p(a, 0), o[0]); },
                 "lookback period; money flow = typical price * volume, signed by the typical price's change; 100*pos/(pos+neg)"});
    c.push_back({"OBV", {}, {"value"}, {kClose, kVolume}, false, [](Params) { return obv_lookback(); },
                 [](Params, const PriceSeries& s, Outputs o) { obv_compute(s.close, s.volume, s.n, o[0]); },
                 "lookback 0; starts at the first volume, then adds the volume on an up close and subtracts it on a down close"});
    c.push_back(
        {"WILLR", {period2}, {"value"}, {kHigh, kLow, kClose}, false, [](Params a) { return willr_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { willr_compute(s.high, s.low, s.close, s.n, p(a, 0), o[0]); },
                 "lookback period-1; -100*(highest high - close)/(highest high - lowest low) over the last period bars, the current bar included (0 when the range is 0)"});
    c.push_back({"ROC", {period1}, {"value"}, {kClose}, false, [](Params a) { return roc_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { roc_compute(s.close, s.n, p(a, 0), o[0]); },
                 "lookback period; (x / x period bars ago - 1) * 100"});
    c.push_back({"MAX", {period2}, {"value"}, {kHigh}, false, [](Params a) { return max_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { max_compute(s.high, s.n, p(a, 0), o[0]); },
                 "lookback period-1; the highest high of the last period bars, the current bar included (Donchian upper band)"});
    c.push_back({"MIN", {period2}, {"value"}, {kLow}, false, [](Params a) { return min_lookback(p(a, 0)); },
                 [](Params a, const PriceSeries& s, Outputs o) { min_compute(s.low, s.n, p(a, 0), o[0]); },
                 "lookback period-1; the lowest low of the last period bars, the current bar included (Donchian lower band)"});
    c.push_back({"BREADTH", {period1}, {"value"}, {kClose}, true, [](Params a) { return breadth_lookback(p(a, 0)); },
                 nullptr,  // cross-symbol: compute_aligned_series
                 "lookback period-1; per bar, the fraction of the tradable symbols whose close is above its EMA(period): one series for the whole market"});
    return c;
}

std::string param_names(const IndicatorDescriptor& desc) {
    std::string names;
    for (const auto& param : desc.params) {
        if (!names.empty()) names += ", ";
        names += param.name;
    }
    return names.empty() ? "none" : names;
}

}  // namespace

const char* price_input_name(PriceInput input) {
    switch (input) {
        case PriceInput::open: return "open";
        case PriceInput::high: return "high";
        case PriceInput::low: return "low";
        case PriceInput::close: return "close";
        case PriceInput::volume: return "volume";
    }
    return "?";
}

bool takes_input_column(const IndicatorDescriptor& desc) { return desc.inputs.size() == 1 && !desc.cross_symbol; }

PriceInput resolve_input_column(const IndicatorDescriptor& desc, std::string_view column) {
    if (column.empty()) return desc.inputs.front();
    const std::string who(desc.name);
    if (!takes_input_column(desc)) {
        throw std::invalid_argument(who + " reads several price columns (or the whole market): it takes no input column");
    }
    for (int i = 0; i < kPriceInputs; ++i) {
        if (column == price_input_name(static_cast<PriceInput>(i))) return static_cast<PriceInput>(i);
    }
    throw std::invalid_argument(who + ": unknown input column '" + std::string(column) +
                                "' (open, high, low, close, volume)");
}

std::span<const IndicatorDescriptor> indicator_catalog() {
    static const std::vector<IndicatorDescriptor> catalog = build_catalog();
    return catalog;
}

const IndicatorDescriptor* find_indicator(std::string_view name) {
    for (const auto& desc : indicator_catalog()) {
        if (desc.name == name) return &desc;
    }
    return nullptr;
}

int find_output(const IndicatorDescriptor& desc, std::string_view output) {
    for (std::size_t i = 0; i < desc.outputs.size(); ++i) {
        if (desc.outputs[i] == output) return static_cast<int>(i);
    }
    return -1;
}

std::string describe_domain(const IndicatorParam& param) {
    if (param.integer) {
        return "an integer from " + std::to_string(static_cast<long long>(param.minimum)) + " to " +
               std::to_string(static_cast<long long>(param.maximum));
    }
    return "a number from " + format_double(param.minimum) + " to " + format_double(param.maximum);
}

void validate_indicator_params(const IndicatorDescriptor& desc, std::span<const double> params) {
    const std::string who(desc.name);
    if (params.size() != desc.params.size()) {
        throw std::invalid_argument(who + ": expected " + std::to_string(desc.params.size()) + " parameter(s) (" +
                                    param_names(desc) + "), got " + std::to_string(params.size()));
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
        const IndicatorParam& spec = desc.params[i];
        const double v = params[i];
        // NaN fails both comparisons, an infinity the bounds.
        const bool inside = v >= spec.minimum && v <= spec.maximum;
        if (!inside || (spec.integer && std::floor(v) != v)) {
            throw std::invalid_argument(who + ": " + std::string(spec.name) + " must be " + describe_domain(spec) +
                                        ", got " + format_double(v));
        }
    }
}

void compute_indicator(const IndicatorDescriptor& desc, std::span<const double> params, const PriceSeries& s,
                       std::span<double* const> outputs) {
    const std::string who(desc.name);
    if (desc.cross_symbol) {
        throw std::invalid_argument(who + " is a cross-symbol indicator: use compute_aligned_series");
    }
    if (outputs.size() != desc.outputs.size()) {
        throw std::invalid_argument(who + ": expected " + std::to_string(desc.outputs.size()) + " output buffer(s), got " +
                                    std::to_string(outputs.size()));
    }
    desc.compute(params, s, outputs);
}

}  // namespace btforge

#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace btforge {

// Price arrays an indicator reads.
enum class PriceInput { open, high, low, close, volume };
inline constexpr int kPriceInputs = 5;

// "open", "high", "low", "close", "volume".
const char* price_input_name(PriceInput input);

// Note [Parameter domains]
// Every indicator parameter has a stated domain, TA-Lib 0.8.1's own (what
// TA_<NAME> accepts without TA_BAD_PARAM, both bounds inclusive): a period is
// an integer from 1 (SMA, EMA, WMA, KAMA, ATR, PLUS_DI, MINUS_DI, ROC, the
// three STOCH periods, the MACD signal; BREADTH, whose EMA it is) or from 2
// (RSI, BBANDS, ADX, CCI, MFI, WILLR, MAX, MIN, the MACD fast and slow
// periods) to 100000; BBANDS' k is any number from -3e37 to 3e37 (TA_REAL_MIN
// .. TA_REAL_MAX; a negative k puts the upper band below the lower one, as in
// TA-Lib). validate_indicator_params is the one check of it, wherever a value
// comes from (a spec's literal, a grid, --param, Python); `btforge indicators
// --list` prints it (describe_domain).
struct IndicatorParam {
    std::string_view name;
    bool integer;      // must be a whole number
    double minimum;    // inclusive
    double maximum;    // inclusive
};

// The domain in words: "an integer from 2 to 100000", "a number from -3e+37
// to 3e+37".
std::string describe_domain(const IndicatorParam& param);

// One bar-aligned input series (a single symbol's own bars); arrays the
// indicator does not read may be null.
struct PriceSeries {
    const double* open = nullptr;
    const double* high = nullptr;
    const double* low = nullptr;
    const double* close = nullptr;
    const double* volume = nullptr;
    int n = 0;
};

// Catalog entry of one SPEC §5 indicator. Parameters are passed as doubles in
// the order of `params`; integer ones are validated to be whole numbers.
struct IndicatorDescriptor {
    std::string_view name;                  // upper case, as in SPEC §5
    std::vector<IndicatorParam> params;
    std::vector<std::string_view> outputs;  // "value" for single-output indicators
    std::vector<PriceInput> inputs;
    bool cross_symbol;                      // BREADTH: needs the whole market
    int (*lookback)(std::span<const double> params);  // params already validated
    // The reference's NAME_compute on one symbol's series, one output buffer
    // per entry of `outputs` (compute_indicator checks the count); null for
    // a cross-symbol indicator. The catalog is the one list of the
    // indicators: the dispatch is here, and btforge-gen derives the GPU's
    // (Note [One indicator table]).
    void (*compute)(std::span<const double> params, const PriceSeries& series, std::span<double* const> outputs);
    // SPEC §5 in words, for `btforge indicators --list`: "lookback <the
    // lookback as a formula of the params>; what a value is" (which bars it
    // covers, whether the current bar is among them).
    std::string_view semantics;
};

// Note [Indicator input column]
// An indicator that reads one price array of one symbol (SMA, EMA, RSI, ...,
// MAX of the high, MIN of the low) computes the same thing on any column, so a
// spec's indicator use may name the column it reads ("input": "high"): MAX of
// the close as well as of the high. The column is part of the series'
// identity (SeriesKey), and reaches the device as IndicatorJob::input. An
// indicator of several inputs (ATR, STOCH, ...) or of the whole market
// (BREADTH) reads its own and takes no "input".
bool takes_input_column(const IndicatorDescriptor& desc);

// The array `desc` reads for `column` ("high"; empty: its own). Throws
// std::invalid_argument naming the indicator for an unknown column, or a
// column given to an indicator that cannot take one.
PriceInput resolve_input_column(const IndicatorDescriptor& desc, std::string_view column);

// Note [One indicator table]
// The catalog (build_catalog, indicator_registry.cpp) is the one list of the
// indicators: name, parameters and their domains, outputs, inputs, lookback,
// the reference function that computes it, and what a value is. The rest
// derives from it: the CPU dispatch (IndicatorDescriptor::compute), `btforge
// indicators --list`, the specs' checks (host/engine/indicator_signatures.h)
// and btforge-gen's GPU indicator kernels (spec/generator.json
// "indicator_kernels": each per-symbol indicator NAME runs
// btforge::name_compute of reference/indicators/name.h, lower case). A new
// indicator is one header and one entry here.
std::span<const IndicatorDescriptor> indicator_catalog();
const IndicatorDescriptor* find_indicator(std::string_view name);

// Index of `output` in desc.outputs, or -1.
int find_output(const IndicatorDescriptor& desc, std::string_view output);

// Throws std::invalid_argument naming the indicator, the parameter, its domain
// and the value (e.g. "EMA: period must be an integer from 1 to 100000, got
// 1.5"); NaN and infinities are outside every domain.
void validate_indicator_params(const IndicatorDescriptor& desc, std::span<const double> params);

// Runs the reference kernel of a single-series indicator (every one but
// BREADTH) on one series; outputs[i] receives desc.outputs[i], each [series.n].
// Params must be valid (validate_indicator_params). Throws std::invalid_argument
// for BREADTH or a wrong number of outputs.
void compute_indicator(const IndicatorDescriptor& desc, std::span<const double> params, const PriceSeries& series,
                       std::span<double* const> outputs);

}  // namespace btforge

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "host/data/market.h"
#include "host/indicators/aligned_series.h"
#include "host/indicators/indicator_registry.h"

using btforge::compute_aligned_series;
using btforge::find_indicator;
using btforge::indicator_catalog;
using btforge::Market;

namespace {

// A hand-built market: symbols[s] has a bar at aligned bar t where
// present[s][t] is 1, closes given per aligned bar (held closes are filled in
// like the loader does: last close where absent, NaN before the first bar).
Market make_market(const std::vector<std::vector<int>>& present, const std::vector<std::vector<double>>& closes) {
    Market m;
    const int n_symbols = static_cast<int>(present.size());
    const int n_bars = static_cast<int>(present[0].size());
    for (int s = 0; s < n_symbols; ++s) {
        m.symbols.push_back("S" + std::to_string(s));
        m.instruments.emplace_back();
    }
    m.set_instrument_columns();
    for (int t = 0; t < n_bars; ++t) m.timestamp_ms.push_back(1'000 * (t + 1));
    const std::size_t size = static_cast<std::size_t>(n_symbols * n_bars);
    const double nan = std::nan("");
    m.open.assign(size, nan);
    m.high.assign(size, nan);
    m.low.assign(size, nan);
    m.close.assign(size, nan);
    m.volume.assign(size, 0.0);
    m.funding_rate.assign(size, 0.0);
    m.funding_events.assign(size, 0);
    m.tradable.assign(size, 0);
    m.own_bars.resize(static_cast<std::size_t>(n_symbols));
    for (int s = 0; s < n_symbols; ++s) {
        double last = nan;
        for (int t = 0; t < n_bars; ++t) {
            const std::size_t i = m.index(s, t);
            if (present[s][t]) {
                last = closes[s][t];
                m.tradable[i] = 1;
                m.volume[i] = 100.0;
                m.own_bars[static_cast<std::size_t>(s)].push_back(t);
                m.open[i] = m.high[i] = m.low[i] = m.close[i] = last;
                m.high[i] = last + 1.0;
                m.low[i] = last - 1.0;
            } else {
                m.open[i] = m.high[i] = m.low[i] = m.close[i] = last;
            }
        }
    }
    return m;
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

TEST_CASE("the catalog lists every SPEC §5 indicator once, with its parameters and outputs") {
    const std::vector<std::string> expected = {"SMA",     "EMA",      "WMA", "KAMA",  "RSI", "MACD", "BBANDS",
                                               "ATR",     "PLUS_DI",  "MINUS_DI", "ADX", "STOCH", "CCI", "MFI",
                                               "OBV",     "WILLR",    "ROC", "MAX",   "MIN", "BREADTH"};
    REQUIRE(indicator_catalog().size() == expected.size());
    for (const auto& name : expected) {
        CAPTURE(name);
        REQUIRE(find_indicator(name) != nullptr);
        CHECK(find_indicator(name)->name == name);
    }
    CHECK(find_indicator("ema") == nullptr);
    CHECK(find_indicator("NOPE") == nullptr);

    const auto* macd = find_indicator("MACD");
    REQUIRE(macd->params.size() == 3);
    CHECK(macd->params[0].name == "fast");
    CHECK(macd->params[1].name == "slow");
    CHECK(macd->params[2].name == "signal");
    CHECK(macd->outputs == std::vector<std::string_view>{"macd", "signal", "hist"});
    const std::vector<double> macd_params = {12, 26, 9};
    CHECK(macd->lookback(macd_params) == 33);

    const auto* bbands = find_indicator("BBANDS");
    CHECK(bbands->params[1].name == "k");
    CHECK_FALSE(bbands->params[1].integer);
    CHECK(bbands->outputs == std::vector<std::string_view>{"upper", "middle", "lower"});

    const auto* stoch = find_indicator("STOCH");
    CHECK(stoch->params[0].name == "fastk");
    CHECK(stoch->outputs == std::vector<std::string_view>{"slowk", "slowd"});
    const std::vector<double> stoch_params = {14, 3, 3};
    CHECK(stoch->lookback(stoch_params) == 17);

    CHECK(find_indicator("OBV")->params.empty());
    CHECK(find_indicator("EMA")->outputs == std::vector<std::string_view>{"value"});
    CHECK(find_indicator("MAX")->inputs == std::vector<btforge::PriceInput>{btforge::PriceInput::high});
    CHECK(find_indicator("MIN")->inputs == std::vector<btforge::PriceInput>{btforge::PriceInput::low});
    CHECK(find_indicator("BREADTH")->cross_symbol);
    const std::vector<double> adx_params = {14};
    CHECK(find_indicator("ADX")->lookback(adx_params) == 27);
}

namespace {

const double kNaN = std::nan("");
const double kInf = std::numeric_limits<double>::infinity();
const double kAboveMaxReal = std::nextafter(3e37, kInf);  // 3.0000000000000007e+37

// One edge of one parameter domain (Note [Parameter domains]): the values
// given, and the error they must give ("" where they are accepted). The
// bounds are written here from TA-Lib 0.8.1's own ranges (its TA_BAD_PARAM),
// not read from the registry, so the table checks the registry.
struct DomainEdge {
    const char* indicator;
    std::vector<double> params;
    const char* error;
};

const DomainEdge kDomainEdges[] = {
    // Periods from 1: the least accepted, one below, the greatest, one above,
    // a fraction, NaN and infinity.
    {"SMA", {1}, ""},
    {"SMA", {0}, "SMA: period must be an integer from 1 to 100000, got 0"},
    {"SMA", {-1}, "SMA: period must be an integer from 1 to 100000, got -1"},
    {"SMA", {100000}, ""},
    {"SMA", {100001}, "SMA: period must be an integer from 1 to 100000, got 100001"},
    {"SMA", {1.5}, "SMA: period must be an integer from 1 to 100000, got 1.5"},
    {"SMA", {kNaN}, "SMA: period must be an integer from 1 to 100000, got nan"},
    {"SMA", {kInf}, "SMA: period must be an integer from 1 to 100000, got inf"},
    {"EMA", {1}, ""},
    {"EMA", {0}, "EMA: period must be an integer from 1 to 100000, got 0"},
    {"EMA", {100001}, "EMA: period must be an integer from 1 to 100000, got 100001"},
    {"WMA", {1}, ""},
    {"WMA", {100000}, ""},
    {"WMA", {0}, "WMA: period must be an integer from 1 to 100000, got 0"},
    {"KAMA", {1}, ""},
    {"KAMA", {0}, "KAMA: period must be an integer from 1 to 100000, got 0"},
    {"ATR", {1}, ""},
    {"ATR", {0}, "ATR: period must be an integer from 1 to 100000, got 0"},
    {"PLUS_DI", {1}, ""},
    {"PLUS_DI", {0}, "PLUS_DI: period must be an integer from 1 to 100000, got 0"},
    {"MINUS_DI", {1}, ""},
    {"MINUS_DI", {100001}, "MINUS_DI: period must be an integer from 1 to 100000, got 100001"},
    {"ROC", {1}, ""},
    {"ROC", {0}, "ROC: period must be an integer from 1 to 100000, got 0"},
    {"BREADTH", {1}, ""},
    {"BREADTH", {0}, "BREADTH: period must be an integer from 1 to 100000, got 0"},
    // Periods from 2.
    {"RSI", {2}, ""},
    {"RSI", {1}, "RSI: period must be an integer from 2 to 100000, got 1"},
    {"RSI", {100000}, ""},
    {"ADX", {2}, ""},
    {"ADX", {1}, "ADX: period must be an integer from 2 to 100000, got 1"},
    {"CCI", {2}, ""},
    {"CCI", {1}, "CCI: period must be an integer from 2 to 100000, got 1"},
    {"MFI", {2}, ""},
    {"MFI", {1}, "MFI: period must be an integer from 2 to 100000, got 1"},
    {"WILLR", {2}, ""},
    {"WILLR", {1}, "WILLR: period must be an integer from 2 to 100000, got 1"},
    {"MAX", {2}, ""},
    {"MAX", {1}, "MAX: period must be an integer from 2 to 100000, got 1"},
    {"MIN", {2}, ""},
    {"MIN", {100001}, "MIN: period must be an integer from 2 to 100000, got 100001"},
    // MACD: fast and slow from 2, signal from 1; fast > slow is TA-Lib's swap.
    {"MACD", {2, 2, 1}, ""},
    {"MACD", {100000, 100000, 100000}, ""},
    {"MACD", {26, 12, 9}, ""},
    {"MACD", {1, 26, 9}, "MACD: fast must be an integer from 2 to 100000, got 1"},
    {"MACD", {12, 1, 9}, "MACD: slow must be an integer from 2 to 100000, got 1"},
    {"MACD", {12, 26, 0}, "MACD: signal must be an integer from 1 to 100000, got 0"},
    {"MACD", {12, 100001, 9}, "MACD: slow must be an integer from 2 to 100000, got 100001"},
    {"MACD", {12, 26}, "MACD: expected 3 parameter(s) (fast, slow, signal), got 2"},
    // STOCH: every period from 1.
    {"STOCH", {1, 1, 1}, ""},
    {"STOCH", {100000, 100000, 100000}, ""},
    {"STOCH", {0, 3, 3}, "STOCH: fastk must be an integer from 1 to 100000, got 0"},
    {"STOCH", {5, 0, 3}, "STOCH: slowk must be an integer from 1 to 100000, got 0"},
    {"STOCH", {5, 3, 0}, "STOCH: slowd must be an integer from 1 to 100000, got 0"},
    // BBANDS: period from 2; k any number from -3e37 to 3e37 (TA_REAL_MIN ..
    // TA_REAL_MAX), negative and zero included.
    {"BBANDS", {2, 2}, ""},
    {"BBANDS", {1, 2}, "BBANDS: period must be an integer from 2 to 100000, got 1"},
    {"BBANDS", {20, 0}, ""},
    {"BBANDS", {20, -0.0}, ""},
    {"BBANDS", {20, -1}, ""},
    {"BBANDS", {20, 2.5}, ""},
    {"BBANDS", {20, 3e37}, ""},
    {"BBANDS", {20, -3e37}, ""},
    {"BBANDS", {20, kAboveMaxReal}, "BBANDS: k must be a number from -3e+37 to 3e+37, got 3.0000000000000007e+37"},
    {"BBANDS", {20, -kAboveMaxReal}, "BBANDS: k must be a number from -3e+37 to 3e+37, got -3.0000000000000007e+37"},
    {"BBANDS", {20, 1e308}, "BBANDS: k must be a number from -3e+37 to 3e+37, got 1e+308"},
    {"BBANDS", {20, kInf}, "BBANDS: k must be a number from -3e+37 to 3e+37, got inf"},
    {"BBANDS", {20, -kInf}, "BBANDS: k must be a number from -3e+37 to 3e+37, got -inf"},
    {"BBANDS", {20, kNaN}, "BBANDS: k must be a number from -3e+37 to 3e+37, got nan"},
    // OBV takes none.
    {"OBV", {}, ""},
    {"OBV", {14}, "OBV: expected 0 parameter(s) (none), got 1"},
};

}  // namespace

TEST_CASE("every parameter domain edge: accepted inside, refused outside with the domain in words") {
    for (const DomainEdge& edge : kDomainEdges) {
        const btforge::IndicatorDescriptor* desc = find_indicator(edge.indicator);
        REQUIRE(desc != nullptr);
        CAPTURE(edge.indicator);
        CAPTURE(edge.params.size() > 0 ? edge.params.back() : 0.0);
        if (std::string(edge.error).empty()) {
            CHECK_NOTHROW(btforge::validate_indicator_params(*desc, edge.params));
        } else {
            CHECK_THROWS_WITH_AS(btforge::validate_indicator_params(*desc, edge.params), edge.error,
                                 std::invalid_argument);
        }
    }
}

TEST_CASE("every parameter of every indicator states its domain") {
    for (const btforge::IndicatorDescriptor& desc : indicator_catalog()) {
        for (const btforge::IndicatorParam& param : desc.params) {
            CAPTURE(desc.name);
            CAPTURE(param.name);
            CHECK(param.minimum <= param.maximum);
            CHECK(std::isfinite(param.minimum));
            CHECK(std::isfinite(param.maximum));
            if (param.integer) {
                CHECK((param.minimum == 1 || param.minimum == 2));
                CHECK(param.maximum == 100000);
            }
        }
    }
    CHECK(btforge::describe_domain(find_indicator("BBANDS")->params[0]) == "an integer from 2 to 100000");
    CHECK(btforge::describe_domain(find_indicator("BBANDS")->params[1]) == "a number from -3e+37 to 3e+37");
}

TEST_CASE("compute_aligned_series rejects unknown indicators, outputs and bad params") {
    const Market m = make_market({{1, 1, 1}}, {{1, 2, 3}});
    const std::vector<double> p = {2};
    CHECK_THROWS_WITH_AS(compute_aligned_series(m, "FOO", "value", p, ""), "unknown indicator 'FOO'",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(compute_aligned_series(m, "MACD", "value", std::vector<double>{12, 26, 9}, ""),
                         "MACD: unknown output 'value' (outputs: macd, signal, hist)", std::invalid_argument);
    CHECK_THROWS_AS(compute_aligned_series(m, "EMA", "value", std::vector<double>{0}, ""), std::invalid_argument);
}

TEST_CASE("an indicator holds its value across a missing bar and is NaN before the symbol's first bar") {
    // S0 trades every bar; S1 starts at bar 1 and misses bar 3.
    const Market m = make_market({{1, 1, 1, 1, 1}, {0, 1, 1, 0, 1}},
                                 {{1, 2, 3, 4, 5}, {0, 10, 20, 0, 40}});
    const std::vector<double> p = {2};
    const std::vector<double> sma = compute_aligned_series(m, "SMA", "value", p, "");
    REQUIRE(sma.size() == 10);
    const double nan = std::nan("");
    // S0: SMA(2) of 1..5 on its own bars.
    const std::vector<double> s0 = {nan, 1.5, 2.5, 3.5, 4.5};
    // S1 own bars 1,2,4 hold 10,20,40: SMA(2) = NaN, 15, 30; bar 3 holds 15;
    // bar 0 is before its first bar.
    const std::vector<double> s1 = {nan, nan, 15, 15, 30};
    for (int t = 0; t < 5; ++t) {
        CAPTURE(t);
        CHECK(same(sma[m.index(0, t)], s0[static_cast<std::size_t>(t)]));
        CHECK(same(sma[m.index(1, t)], s1[static_cast<std::size_t>(t)]));
    }
    // MAX reads the high (close + 1 here) and MIN the low (close - 1).
    const std::vector<double> mx = compute_aligned_series(m, "MAX", "value", p, "");
    const std::vector<double> mn = compute_aligned_series(m, "MIN", "value", p, "");
    CHECK(mx[m.index(1, 4)] == 41);
    CHECK(mn[m.index(1, 4)] == 19);
    CHECK(mx[m.index(1, 3)] == 21);  // held from bar 2
}

TEST_CASE("BREADTH counts tradable symbols with an EMA, integer counts, replicated per symbol") {
    // EMA(2): first value on each symbol's 2nd own bar.
    // S0 closes 1,2,3,2,1 -> EMA(2) NaN,1.5,2.5,2.1666..,1.3888.. -> above: -,1,1,0,0
    // S1 closes 5,4,3,4,5 -> EMA(2) NaN,4.5,3.5,3.8333..,4.6111.. -> above: -,0,0,1,1
    // S2 absent at bar 1 and 3, closes 10,_,12,_,8 -> own bars 0,2,4: EMA NaN,11,9 ->
    //   tradable with EMA at bar 2 (12 > 11: above) and bar 4 (8 < 9: below).
    const Market m = make_market({{1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 0, 1, 0, 1}},
                                 {{1, 2, 3, 2, 1}, {5, 4, 3, 4, 5}, {10, 0, 12, 0, 8}});
    const std::vector<double> p = {2};
    const std::vector<double> b = compute_aligned_series(m, "BREADTH", "value", p, "");
    REQUIRE(b.size() == 15);
    const std::vector<double> expected = {std::nan(""), 1.0 / 2.0, 2.0 / 3.0, 1.0 / 2.0, 1.0 / 3.0};
    for (int s = 0; s < 3; ++s) {
        for (int t = 0; t < 5; ++t) {
            CAPTURE(s);
            CAPTURE(t);
            CHECK(same(b[m.index(s, t)], expected[static_cast<std::size_t>(t)]));
        }
    }
}

namespace {

// Evaluates the "lookback ..." formula that opens a descriptor's semantics:
// sums and differences of products of integers and parameter names.
class LookbackFormula {
public:
    LookbackFormula(std::string_view text, const btforge::IndicatorDescriptor& desc, const std::vector<double>& params)
        : text_(text), desc_(desc), params_(params) {}

    int evaluate() {
        int value = term();
        for (skip(); pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'); skip()) {
            const char op = text_[pos_++];
            const int rhs = term();
            value = op == '+' ? value + rhs : value - rhs;
        }
        if (pos_ != text_.size()) throw std::invalid_argument("unexpected text in the lookback formula");
        return value;
    }

private:
    void skip() {
        while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
    }
    int term() {
        int value = factor();
        for (skip(); pos_ < text_.size() && text_[pos_] == '*'; skip()) {
            ++pos_;
            value *= factor();
        }
        return value;
    }
    int factor() {
        skip();
        const std::size_t start = pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) != 0 || text_[pos_] == '_'))
            ++pos_;
        const std::string_view word = text_.substr(start, pos_ - start);
        if (word.empty()) throw std::invalid_argument("a number or a parameter expected in the lookback formula");
        if (std::isdigit(static_cast<unsigned char>(word[0])) != 0) return std::stoi(std::string(word));
        for (std::size_t i = 0; i < desc_.params.size(); ++i)
            if (desc_.params[i].name == word) return static_cast<int>(params_[i]);
        throw std::invalid_argument("unknown name '" + std::string(word) + "' in the lookback formula");
    }

    std::string_view text_;
    const btforge::IndicatorDescriptor& desc_;
    const std::vector<double>& params_;
    std::size_t pos_ = 0;
};

}  // namespace

TEST_CASE("each indicator's semantics open with its lookback, which is the registry's lookback function") {
    // Distinct parameter values, so that a formula naming the wrong parameter
    // gives another number; MACD's fast below slow, as TA-Lib wants.
    for (const btforge::IndicatorDescriptor& desc : indicator_catalog()) {
        CAPTURE(desc.name);
        const std::string_view semantics = desc.semantics;
        REQUIRE(semantics.substr(0, 9) == "lookback ");
        const std::size_t end = semantics.find(';');
        REQUIRE(end != std::string_view::npos);
        CHECK(semantics.size() > end + 2);  // something is said after the lookback
        for (int base : {3, 7}) {
            std::vector<double> params;
            for (std::size_t i = 0; i < desc.params.size(); ++i)
                params.push_back(desc.params[i].integer ? base + 4 * static_cast<int>(i) : 2.0);
            CAPTURE(base);
            LookbackFormula formula(semantics.substr(9, end - 9), desc, params);
            CHECK(formula.evaluate() == desc.lookback(params));
        }
    }
}

TEST_CASE("MAX and MIN say which price they read and that the current bar is included") {
    for (const char* name : {"MAX", "MIN"}) {
        const btforge::IndicatorDescriptor* desc = find_indicator(name);
        REQUIRE(desc != nullptr);
        REQUIRE(desc->inputs.size() == 1);
        const std::string_view price = std::string(name) == "MAX" ? "high" : "low";
        CHECK(btforge::price_input_name(desc->inputs[0]) == price);
        CHECK(desc->semantics.find(std::string(name) == "MAX" ? "highest high" : "lowest low") != std::string_view::npos);
        CHECK(desc->semantics.find("the current bar included") != std::string_view::npos);
    }
}

namespace {

// Runs `desc` through the registry on `series`; one vector per output.
std::vector<std::vector<double>> run(const btforge::IndicatorDescriptor& desc, const std::vector<double>& params,
                                     const btforge::PriceSeries& series) {
    std::vector<std::vector<double>> outputs(desc.outputs.size(), std::vector<double>(series.n, 12345.0));
    std::vector<double*> pointers;
    for (auto& o : outputs) pointers.push_back(o.data());
    btforge::compute_indicator(desc, params, series, pointers);
    return outputs;
}

// Deterministic bars quoted near 1.1 with ranges of 0.0005 .. 0.006 (a
// currency pair's hours), a flat stretch (bars 60 .. 89: every price equal,
// the zero tests' case) and a gap: x_{t+1} from a 64-bit LCG.
struct Bars {
    std::vector<double> open, high, low, close, volume;
    btforge::PriceSeries series() const {
        btforge::PriceSeries s;
        s.open = open.data();
        s.high = high.data();
        s.low = low.data();
        s.close = close.data();
        s.volume = volume.data();
        s.n = static_cast<int>(close.size());
        return s;
    }
    Bars scaled(double factor) const {
        Bars b = *this;
        for (auto* column : {&b.open, &b.high, &b.low, &b.close})
            for (double& x : *column) x *= factor;
        return b;
    }
};

Bars quoted_bars(int n) {
    std::uint64_t state = 20261127;
    auto uniform = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
    };
    Bars b;
    double close = 1.1;
    for (int t = 0; t < n; ++t) {
        const double open = close;
        if (t < 60 || t >= 90) close = open * (1.0 + 0.004 * (uniform() - 0.5));
        if (t == 120) close *= 1.03;
        const bool flat = t >= 60 && t < 90;
        b.open.push_back(open);
        b.close.push_back(close);
        b.high.push_back(flat ? close : std::max(open, close) + 0.003 * uniform());
        b.low.push_back(flat ? close : std::min(open, close) - 0.003 * uniform());
        b.volume.push_back(1000.0 + std::floor(9000.0 * uniform()));
    }
    return b;
}

// Outputs in the unit of the price (they scale with it); the others are
// ratios, counts or volumes and do not change with the quote.
bool in_price_unit(std::string_view indicator) {
    for (std::string_view name : {"SMA", "EMA", "WMA", "KAMA", "MACD", "BBANDS", "ATR", "MAX", "MIN"})
        if (indicator == name) return true;
    return false;
}

}  // namespace

TEST_CASE("every indicator gives the same answer at every price scale the loader accepts") {
    // Multiplying by a power of two is exact, and so commutes with every
    // rounding: at 2^-40 (about 9.1e-13, near the loader's 1e-12 floor) and
    // 2^40 (about 1.1e12, its ceiling) a price-unit output must be the
    // unscaled one times the factor bit for bit, and a ratio identical. A
    // zero test in the quote's unit (a fixed band on a price quantity)
    // breaks this: ADX's test of its true-range sum against 1e-14 did, on
    // the bars quoted near 1.1 below, at 2^-40 (Note [TA-Lib zero tests]).
    const Bars bars = quoted_bars(200);
    const btforge::PriceSeries base = bars.series();
    for (int exponent : {-40, 40}) {
        const double factor = std::ldexp(1.0, exponent);
        const Bars scaled_bars = bars.scaled(factor);
        const btforge::PriceSeries scaled = scaled_bars.series();
        for (const btforge::IndicatorDescriptor& desc : indicator_catalog()) {
            if (desc.cross_symbol) continue;
            // Periods 2 and 14 (BBANDS k 2, MACD 12/26/9 and 2/3/1).
            for (int period : {2, 14}) {
                std::vector<double> params;
                for (std::size_t i = 0; i < desc.params.size(); ++i) {
                    if (!desc.params[i].integer) params.push_back(2.0);
                    else if (desc.name == "MACD") params.push_back(period == 2 ? 2.0 + i : (i == 0 ? 12 : i == 1 ? 26 : 9));
                    else params.push_back(period);
                }
                const auto expected = run(desc, params, base);
                const auto got = run(desc, params, scaled);
                const double unit = in_price_unit(desc.name) ? factor : 1.0;
                for (std::size_t o = 0; o < got.size(); ++o) {
                    for (std::size_t t = 0; t < got[o].size(); ++t) {
                        if (!same(got[o][t], expected[o][t] * unit)) {
                            FAIL_CHECK(desc.name << " period " << period << " output " << desc.outputs[o] << " at x 2^"
                                                 << exponent << ", bar " << t << ": " << got[o][t] << ", expected "
                                                 << expected[o][t] * unit);
                            break;
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("every indicator computes at the top of its domain") {
    // Every period at 100000 (BBANDS k at 3e37) on a constant series just long
    // enough for two outputs: NaN before the lookback, then the constant's
    // value. WMA's divider period*(period+1)/2 overflowed an int from period
    // 46341 on (Note [WMA re-anchoring]).
    for (const btforge::IndicatorDescriptor& desc : indicator_catalog()) {
        if (desc.cross_symbol) continue;
        CAPTURE(desc.name);
        std::vector<double> params;
        for (const btforge::IndicatorParam& param : desc.params) params.push_back(param.maximum);
        const int lookback = desc.lookback(params);
        const int n = lookback + 2;
        const std::vector<double> price(static_cast<std::size_t>(n), 1.5);
        const std::vector<double> volume(static_cast<std::size_t>(n), 100.0);
        btforge::PriceSeries s;
        s.open = s.high = s.low = s.close = price.data();
        s.volume = volume.data();
        s.n = n;
        const auto outputs = run(desc, params, s);
        // The constant for averages, bands and extremes; 0 for the ranges
        // (ATR), differences (MACD) and oscillators; OBV its first volume.
        double expected = in_price_unit(desc.name) ? 1.5 : 0.0;
        if (desc.name == "ATR" || desc.name == "MACD") expected = 0.0;
        if (desc.name == "OBV") expected = 100.0;
        for (std::size_t o = 0; o < outputs.size(); ++o) {
            CAPTURE(desc.outputs[o]);
            const std::vector<double>& values = outputs[o];
            const auto first_value = std::find_if(values.begin(), values.end(), [](double v) { return !std::isnan(v); });
            CHECK(first_value - values.begin() == lookback);
            CHECK(values[static_cast<std::size_t>(lookback)] == expected);
            CHECK(values[static_cast<std::size_t>(lookback + 1)] == expected);
        }
    }
}

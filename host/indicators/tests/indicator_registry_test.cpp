#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
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

TEST_CASE("parameter validation names the indicator, the rule and the value") {
    const auto* ema = find_indicator("EMA");
    const std::vector<double> fractional = {1.5};
    CHECK_THROWS_WITH_AS(btforge::validate_indicator_params(*ema, fractional),
                         "EMA: period must be an integer >= 1 and <= 100000, got 1.5", std::invalid_argument);
    const std::vector<double> rsi_one = {1};
    CHECK_THROWS_WITH_AS(btforge::validate_indicator_params(*find_indicator("RSI"), rsi_one),
                         "RSI: period must be an integer >= 2 and <= 100000, got 1", std::invalid_argument);
    const std::vector<double> two = {12, 26};
    CHECK_THROWS_WITH_AS(btforge::validate_indicator_params(*find_indicator("MACD"), two),
                         "MACD: expected 3 parameter(s) (fast, slow, signal), got 2", std::invalid_argument);
    const std::vector<double> negative_k = {20, -1};
    CHECK_THROWS_WITH_AS(btforge::validate_indicator_params(*find_indicator("BBANDS"), negative_k),
                         "BBANDS: k must be a finite number >= 0, got -1", std::invalid_argument);
    const std::vector<double> nan_period = {std::nan("")};
    CHECK_THROWS_AS(btforge::validate_indicator_params(*ema, nan_period), std::invalid_argument);
    const std::vector<double> ok = {20, 2.5};
    CHECK_NOTHROW(btforge::validate_indicator_params(*find_indicator("BBANDS"), ok));
    CHECK_NOTHROW(btforge::validate_indicator_params(*find_indicator("OBV"), std::vector<double>{}));
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

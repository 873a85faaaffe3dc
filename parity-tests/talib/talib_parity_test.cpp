// Oracle comparison: the reference kernels (through the host registry's
// dispatch) against TA-Lib on the synthetic series of talib_fixture.py.
// TA-Lib's outputs are bar-aligned by the Python wrapper (NaN before its
// outBegIdx), the reference writes NaN before its lookback: the NaN patterns
// must be identical, and every other value within 1e-12 relative.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/indicators/indicator_registry.h"

namespace {

using nlohmann::json;

std::vector<double> decode(const json& values) {
    std::vector<double> out;
    out.reserve(values.size());
    for (const auto& v : values) {
        out.push_back(v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>());
    }
    return out;
}

std::string describe_params(const std::vector<double>& params) {
    std::ostringstream s;
    s << "(";
    for (std::size_t i = 0; i < params.size(); ++i) s << (i ? ", " : "") << params[i];
    s << ")";
    return s.str();
}

}  // namespace

TEST_CASE("reference indicators agree with TA-Lib to 1e-12 relative") {
    std::ifstream in(BTFORGE_TALIB_FIXTURE);
    REQUIRE_MESSAGE(in.good(), "missing fixture " BTFORGE_TALIB_FIXTURE " (the talib_fixture test writes it)");
    const json doc = json::parse(in);
    std::cout << "TA-Lib oracle: Python ta-lib " << doc.at("talib_version").get<std::string>() << ", C library "
              << doc.at("ta_lib_c_version").get<std::string>() << "\n";

    std::map<std::string, std::vector<std::vector<double>>> series;  // open, high, low, close, volume
    for (const auto& s : doc.at("series")) {
        series[s.at("name").get<std::string>()] = {decode(s.at("open")), decode(s.at("high")), decode(s.at("low")),
                                                  decode(s.at("close")), decode(s.at("volume"))};
    }

    std::map<std::string, double> max_rel;
    std::map<std::string, long> compared;
    long failures = 0;
    for (const auto& c : doc.at("cases")) {
        const std::string indicator = c.at("indicator").get<std::string>();
        const std::string series_name = c.at("series").get<std::string>();
        const std::vector<double> params = c.at("params").get<std::vector<double>>();
        const btforge::IndicatorDescriptor* desc = btforge::find_indicator(indicator);
        REQUIRE_MESSAGE(desc != nullptr, "fixture names unknown indicator " << indicator);

        const auto& s = series.at(series_name);
        btforge::PriceSeries ps;
        ps.open = s[0].data();
        ps.high = s[1].data();
        ps.low = s[2].data();
        ps.close = s[3].data();
        ps.volume = s[4].data();
        ps.n = static_cast<int>(s[3].size());

        const json& expected_outputs = c.at("outputs");
        REQUIRE(expected_outputs.size() == desc->outputs.size());
        std::vector<std::vector<double>> got(desc->outputs.size(), std::vector<double>(s[3].size(), 12345.0));
        std::vector<double*> ptrs;
        for (auto& g : got) ptrs.push_back(g.data());
        // Kernel-level parameter sets (e.g. MACD fast > slow, which TA-Lib swaps)
        // are compared too; the registry validates only the minimums.
        btforge::compute_indicator(*desc, params, ps, ptrs);

        double& worst = max_rel[indicator];
        for (std::size_t o = 0; o < got.size(); ++o) {
            const std::vector<double> expected = decode(expected_outputs[o]);
            for (std::size_t t = 0; t < expected.size(); ++t) {
                const double ref = got[o][t];
                const double ta = expected[t];
                const std::string where = indicator + describe_params(params) + "." + std::string(desc->outputs[o]) +
                                          " on " + series_name + " at bar " + std::to_string(t);
                if (std::isnan(ta) || std::isnan(ref)) {
                    if (std::isnan(ta) != std::isnan(ref)) {
                        ++failures;
                        if (failures <= 50) {
                            FAIL_CHECK(where << ": NaN mismatch, reference " << ref << ", TA-Lib " << ta);
                        }
                    }
                    continue;
                }
                const double rel = std::fabs(ref - ta) / std::max(1.0, std::fabs(ta));
                worst = std::max(worst, rel);
                ++compared[indicator];
                if (!(rel <= 1e-12)) {
                    ++failures;
                    if (failures <= 50) {
                        FAIL_CHECK(where << ": reference " << std::setprecision(17) << ref << ", TA-Lib " << ta
                                         << " (relative error " << rel << ")");
                    }
                }
            }
        }
    }
    std::cout << "max relative error per indicator (values compared):\n";
    for (const auto& [name, rel] : max_rel) {
        std::cout << "  " << name << ": " << rel << " (" << compared[name] << ")\n";
    }
    CHECK_MESSAGE(failures == 0, failures << " values disagree with TA-Lib");
}

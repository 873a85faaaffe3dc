// Oracle comparison: the reference kernels (through the host registry's
// dispatch) against TA-Lib on the synthetic series of talib_fixture.py.
// TA-Lib's outputs are bar-aligned by the Python wrapper (NaN before its
// outBegIdx), the reference writes NaN before its lookback: the NaN patterns
// must be identical, and every other value within 1e-14 relative (Note
// [Oracle tolerance], oracle_tolerance.h). Then the parameter domains: each
// value TA-Lib accepts is accepted, each it refuses is refused (Note
// [Parameter domains]).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/indicators/indicator_registry.h"
#include "parity-tests/talib/oracle_tolerance.h"

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

json read_fixture() {
    std::ifstream in(BTFORGE_TALIB_FIXTURE);
    REQUIRE_MESSAGE(in.good(), "missing fixture " BTFORGE_TALIB_FIXTURE " (the talib_fixture test writes it)");
    return json::parse(in);
}

// A probe's parameter: a number, or NaN and the infinities as text.
double probe_value(const json& v) {
    if (v.is_number()) return v.get<double>();
    return std::stod(v.get<std::string>());
}

}  // namespace

TEST_CASE("reference indicators agree with TA-Lib to 1e-14 relative") {
    const json doc = read_fixture();
    std::cout << "TA-Lib oracle: Python ta-lib " << doc.at("talib_version").get<std::string>() << ", C library "
              << doc.at("ta_lib_c_version").get<std::string>() << "\n";

    std::map<std::string, std::vector<std::vector<double>>> series;  // open, high, low, close, volume
    for (const auto& s : doc.at("series")) {
        series[s.at("name").get<std::string>()] = {decode(s.at("open")), decode(s.at("high")), decode(s.at("low")),
                                                  decode(s.at("close")), decode(s.at("volume"))};
    }

    std::map<std::string, double> max_rel;
    std::map<std::string, long> compared;
    std::map<std::string, long> identical;
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
                const double rel = btforge::oracle::relative_error(ref, ta);
                if (!std::isnan(ta)) {
                    worst = std::max(worst, rel);
                    ++compared[indicator];
                    if (ref == ta) ++identical[indicator];
                }
                if (!(rel <= btforge::oracle::kTolerance)) {
                    ++failures;
                    if (failures <= 50) {
                        FAIL_CHECK(where << ": reference " << std::setprecision(17) << ref << ", TA-Lib " << ta
                                         << " (relative error " << rel << ")");
                    }
                }
            }
        }
    }
    std::cout << "max relative error per indicator (values compared, bit-identical):\n";
    for (const auto& [name, rel] : max_rel) {
        std::cout << "  " << name << ": " << rel << " (" << compared[name] << ", " << identical[name] << ")\n";
    }
    CHECK_MESSAGE(failures == 0, failures << " values disagree with TA-Lib");
}

TEST_CASE("every parameter domain is TA-Lib's: each probe accepted or refused as TA-Lib does") {
    const json doc = read_fixture();
    long probes = 0;
    for (const auto& probe : doc.at("domains")) {
        const std::string indicator = probe.at("indicator").get<std::string>();
        const btforge::IndicatorDescriptor* desc = btforge::find_indicator(indicator);
        REQUIRE_MESSAGE(desc != nullptr, "fixture names unknown indicator " << indicator);
        std::vector<double> params;
        for (const auto& v : probe.at("params")) params.push_back(probe_value(v));
        const bool talib_accepts = probe.at("accepted").get<bool>();
        bool accepted = true;
        std::string why;
        try {
            btforge::validate_indicator_params(*desc, params);
        } catch (const std::invalid_argument& e) {
            accepted = false;
            why = e.what();
        }
        CHECK_MESSAGE(accepted == talib_accepts, indicator << describe_params(params) << ": TA-Lib "
                                                           << (talib_accepts ? "accepts" : "refuses") << ", reference "
                                                           << (accepted ? "accepts" : "refuses: " + why));
        ++probes;
    }
    CHECK(probes > 100);
}

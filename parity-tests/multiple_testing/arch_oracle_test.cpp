// Oracle comparison: btforge's Reality Check, SPA and StepM (Note [Reality
// Check, SPA and StepM]) against arch on the matrices of arch_fixture.py,
// given the very resamples arch drew. A p-value is a count of resamples over
// their number, so it must be equal; a critical value interpolates two
// bootstrap maxima, each a sum over the resample summed in another order
// than numpy's, so it is equal within 1e-12 relative; the superior sets must
// be equal.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/validation/superior_predictive_ability.h"

namespace {

using nlohmann::json;

json read_fixture() {
    std::ifstream in(BTFORGE_ARCH_FIXTURE);
    if (!in) throw std::runtime_error("cannot read " BTFORGE_ARCH_FIXTURE " (run the arch_fixture test first)");
    return json::parse(in);
}

TEST_CASE("arch's SPA, Reality Check and StepM, on the resamples arch drew") {
    const json fixture = read_fixture();
    MESSAGE("arch " << fixture.at("arch").get<std::string>() << ", numpy " << fixture.at("numpy").get<std::string>());
    REQUIRE(fixture.at("cases").size() >= 5);
    int most_steps = 0;
    for (const json& c : fixture.at("cases")) {
        const std::string name = c.at("name");
        CAPTURE(name);
        const std::vector<double> values = c.at("differentials").get<std::vector<double>>();
        const int observations = c.at("observations");
        const std::uint64_t combinations = c.at("combinations");
        const btforge::BootstrapCounts resamples =
            btforge::bootstrap_counts_of(observations, c.at("positions").get<std::vector<std::vector<int>>>());
        btforge::SpaOptions options;
        options.mean_block = c.at("mean_block");
        options.size = c.at("size");
        options.threads = 2;
        const btforge::SpaReport r =
            btforge::superior_predictive_ability({values, combinations, observations}, resamples, options);
        REQUIRE(r.undefined == nullptr);
        CHECK(r.combinations == combinations);
        CHECK(r.best_mean == doctest::Approx(c.at("best_mean").get<double>()).epsilon(1e-12));
        CHECK(r.pvalue_lower == c.at("pvalue_lower").get<double>());
        CHECK(r.pvalue_consistent == c.at("pvalue_consistent").get<double>());
        CHECK(r.pvalue_upper == c.at("pvalue_upper").get<double>());
        CHECK(r.pvalue_upper == c.at("reality_check").get<double>());
        CHECK(r.critical_value == doctest::Approx(c.at("critical_value").get<double>()).epsilon(1e-12));
        CHECK(r.superior == c.at("superior").get<std::vector<std::uint64_t>>());
        MESSAGE(name << ": SPA " << r.pvalue_consistent << ", RC " << r.pvalue_upper << ", StepM "
                     << r.superior.size() << " superior in " << r.steps << " passes");
        most_steps = std::max(most_steps, r.steps);
    }
    CHECK(most_steps >= 4);  // StepM's later steps are compared too, not only its first
}

}  // namespace

// Note [A bar as three legs]: the legs run on the CPU reference only; the
// kernels fold them away, so a GPU engine (emu runs the same kernels) must
// refuse a job that asks for them rather than run the bars' own order.
#include <cstring>
#include <stdexcept>

#include <doctest/doctest.h>

#include "host/backends/emu/emu_backend.h"
#include "host/engine/tests/small_sweep.h"

using namespace btforge;
using btforge::testing::SmallSweep;

TEST_CASE("a job with the legs of a bar: the CPU engine walks them, the emu engine refuses it") {
    SmallSweep sweep("default.json", R"({"strategy": "default", "parameters": {
        "sl_atr": {"values": [1, 2]}, "tp1_atr": {"values": [1, 2]}, "trail_atr": {"values": [0, 1]}}})");
    SweepOptions options;
    options.threads = 1;
    options.rank_metric = find_metric_column("total_return");
    options.top_n = 10;
    options.keep_all_rows = true;
    const SweepOutcome rule = run_cpu_sweep(sweep.job, options);
    SweepJob legs = sweep.job;
    legs.bar_legs = 1;
    const SweepOutcome walked = run_cpu_sweep(legs, options);
    REQUIRE(walked.all.size() == rule.all.size());
    int moved = 0;
    for (std::size_t r = 0; r < rule.all.size(); ++r) {
        CHECK(rule.all[r].metrics.magnified_bars == 0);
        CHECK(walked.all[r].metrics.ambiguous_bars == 0);
        moved += std::memcmp(&rule.all[r].metrics, &walked.all[r].metrics, sizeof(Metrics)) != 0 ? 1 : 0;
    }
    CHECK(moved > 0);
    CHECK_THROWS_WITH_AS(run_emu_sweep(legs, options), doctest::Contains("legs of a bar run on the CPU"),
                         std::invalid_argument);
    CHECK(run_emu_sweep(sweep.job, options).all.size() == rule.all.size());
}

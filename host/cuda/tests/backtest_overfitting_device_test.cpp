// Note [CSCV scan on the device]: the kernels' phases run on the host over
// grids of several chunks, partial tiles and ties that cross chunks; merged,
// they must give the CPU's report bit for bit.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "host/cuda/backtest_overfitting_device.h"

namespace btforge {
namespace {

std::vector<PeriodStatistics> random_periods(std::uint64_t seed, int combinations, int periods, int bars,
                                             int duplicate_every) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal;
    std::vector<PeriodStatistics> out;
    for (int n = 0; n < combinations; ++n) {
        if (duplicate_every > 0 && n % duplicate_every == duplicate_every - 1) {
            // A copy of an earlier row, in another chunk: ties must go to the smaller index.
            for (int p = 0; p < periods; ++p) out.push_back(out[static_cast<std::size_t>((n / 2) * periods + p)]);
            continue;
        }
        for (int p = 0; p < periods; ++p) {
            PeriodStatistics s{};
            for (int b = 0; b < bars; ++b) {
                const double r = 0.01 * normal(random);
                s.return_sum += r;
                s.return_sum_squares += r * r;
            }
            s.bars = bars;
            out.push_back(s);
        }
    }
    return out;
}

OverfittingReport report_from_host_grid(std::span<const PeriodStatistics> returns, int periods, unsigned target_blocks) {
    const CscvInput input = pack_cscv_input(returns, periods);
    const std::vector<std::uint32_t> masks = cscv_split_masks(periods);
    const auto splits = static_cast<unsigned>(masks.size());
    std::vector<unsigned> in_masks(splits), out_masks(splits);
    std::vector<long long> in_bars(splits), out_bars(splits);
    for (unsigned s = 0; s < splits; ++s) {
        in_masks[s] = masks[s];
        out_masks[s] = input.all_periods() & ~masks[s];
        in_bars[s] = input.bars_of(in_masks[s]);
        out_bars[s] = input.bars_of(out_masks[s]);
    }
    const cuda::CscvGrid grid = cuda::cscv_grid(splits, input.combinations, target_blocks);
    CHECK(static_cast<std::uint64_t>(grid.chunks) * grid.chunk >= input.combinations);
    std::vector<CscvBest> best(static_cast<std::size_t>(grid.chunks) * splits);
    std::vector<CscvCount> counts(best.size());
    device::CscvScanLaunch launch{};
    launch.sums = input.sums.data();
    launch.combinations = input.combinations;
    launch.chunk = grid.chunk;
    launch.splits = splits;
    launch.periods = periods;
    launch.masks = in_masks.data();
    launch.bars = in_bars.data();
    launch.best = best.data();
    cuda::cscv_scan_on_host(launch, grid, false);
    const std::vector<CscvBest> winners = cuda::merge_cscv_winners(best, splits);
    const std::vector<double> thresholds = cscv_winner_out_of_sample(input, masks, winners);
    launch.masks = out_masks.data();
    launch.bars = out_bars.data();
    launch.thresholds = thresholds.data();
    launch.counts = counts.data();
    cuda::cscv_scan_on_host(launch, grid, true);
    return cscv_report(input, masks, winners, cuda::merge_cscv_counts(counts, splits));
}

void check_same(const OverfittingReport& device, const OverfittingReport& cpu) {
    REQUIRE(device.splits.size() == cpu.splits.size());
    for (std::size_t s = 0; s < cpu.splits.size(); ++s) {
        CAPTURE(s);
        CHECK(device.splits[s].winner == cpu.splits[s].winner);
        CHECK(device.splits[s].in_sample_sharpe == cpu.splits[s].in_sample_sharpe);
        CHECK(device.splits[s].out_of_sample_sharpe == cpu.splits[s].out_of_sample_sharpe);
        CHECK(device.splits[s].relative_rank == cpu.splits[s].relative_rank);
    }
    CHECK(device.pbo == cpu.pbo);
    CHECK(device.degradation_slope == cpu.degradation_slope);
    CHECK(device.probability_of_loss == cpu.probability_of_loss);
}

TEST_CASE("cscv_grid covers every combination with at most 65535 chunks") {
    const cuda::CscvGrid g = cuda::cscv_grid(12870, 1000000, 132 * 32);
    CHECK(g.split_blocks == 101);
    CHECK(g.chunks == 41);
    CHECK(static_cast<std::uint64_t>(g.chunks) * g.chunk >= 1000000);
    CHECK(static_cast<std::uint64_t>(g.chunks - 1) * g.chunk < 1000000);
    const cuda::CscvGrid small = cuda::cscv_grid(70, 3, 4224);
    CHECK(small.chunks == 3);
    CHECK(small.chunk == 1);
    const cuda::CscvGrid huge = cuda::cscv_grid(2, 1ull << 40, 1u << 30);
    CHECK(huge.chunks <= 65535);
}

TEST_CASE("the device scans, run on the host, give the CPU's report: S = 8, chunks with partial tiles and ties") {
    const std::vector<PeriodStatistics> returns = random_periods(3, 301, 8, 20, 7);
    const OverfittingReport cpu = probability_of_backtest_overfitting(returns, 8, {2});
    for (unsigned target : {1u, 5u, 300u}) {
        CAPTURE(target);
        check_same(report_from_host_grid(returns, 8, target), cpu);
    }
}

TEST_CASE("the device scans, run on the host, give the CPU's report: S = 16, 101 blocks of splits") {
    const std::vector<PeriodStatistics> returns = random_periods(4, 40, 16, 5, 0);
    check_same(report_from_host_grid(returns, 16, 4224), probability_of_backtest_overfitting(returns, 16, {2}));
}

}  // namespace
}  // namespace btforge

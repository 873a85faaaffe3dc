// Note [Bootstrap maxima on the device]: the kernel's phases run on the host
// over grids of several chunks and resample blocks, partial tiles, tiles of
// every width, unselected combinations and ties across chunks; merged, the
// maxima must be the CPU's pass bit for bit, and the whole SPA with them.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "host/cuda/bootstrap_maxima_device.h"

namespace btforge {
namespace {

struct Case {
    std::vector<double> values;
    Differentials d;
    std::vector<SparseResample> resamples;
    std::vector<double> lower, consistent, upper;
    std::vector<char> selected;
};

Case make_case(std::uint64_t seed, std::uint64_t count, int observations, int resamples) {
    Case c;
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal;
    for (std::uint64_t k = 0; k < count; ++k) {
        for (int t = 0; t < observations; ++t) c.values.push_back(0.01 * normal(random) + 0.0005 * (k % 3));
    }
    // Every seventh stream repeats an earlier one: equal maxima across chunks.
    for (std::uint64_t k = 6; k < count; k += 7) {
        std::memcpy(&c.values[k * observations], &c.values[(k / 2) * observations], observations * sizeof(double));
    }
    c.d = Differentials{c.values, count, observations};
    const StationaryBootstrapPlan plan{observations, 4.0, resamples, seed};
    c.resamples = sparse_resamples(stationary_bootstrap_counts(plan));
    for (std::uint64_t k = 0; k < count; ++k) {
        c.upper.push_back(0.001 * normal(random));
        c.consistent.push_back(k % 5 == 0 ? 0.0 : c.upper.back());
        c.lower.push_back(std::max(0.0, c.upper.back()));
        c.selected.push_back(k % 11 == 3 ? 0 : 1);
    }
    return c;
}

std::vector<double> on_host_grid(const Case& c, const BootstrapPass& pass, unsigned target_blocks, unsigned tile) {
    const cuda::SpaResampleTable table = cuda::spa_resample_table(c.resamples);
    const cuda::SpaGrid grid = cuda::spa_grid(static_cast<int>(c.resamples.size()), c.d.count, target_blocks);
    std::vector<double> centers;
    for (const std::vector<double>* v : pass.centers) centers.insert(centers.end(), v->begin(), v->end());
    std::vector<unsigned char> selected(pass.selected->begin(), pass.selected->end());
    const int n_centers = static_cast<int>(pass.centers.size());
    std::vector<double> partial(static_cast<std::size_t>(grid.chunks) * c.resamples.size() * n_centers);
    device::SpaScanLaunch launch{};
    launch.values = c.values.data();
    launch.positions = table.positions.data();
    launch.counts = table.counts.data();
    launch.lengths = table.lengths.data();
    launch.center_values = centers.data();
    launch.selected = selected.data();
    launch.maxima = partial.data();
    launch.combinations = c.d.count;
    launch.chunk = grid.chunk;
    launch.observations = c.d.observations;
    launch.resamples = static_cast<int>(c.resamples.size());
    launch.centers = n_centers;
    launch.tile = tile;
    cuda::spa_scan_on_host(launch, grid);
    return cuda::merge_spa_maxima(partial, launch.resamples, n_centers);
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST_CASE("the kernel's pass on the host is the CPU's, bit for bit, for every grid and tile") {
    // 200 resamples: two blocks, the second partial; 157 combinations: tiles
    // and chunks that do not divide it.
    const Case c = make_case(3, 157, 40, 200);
    const BootstrapPass three{{&c.lower, &c.consistent, &c.upper}, &c.selected};
    const BootstrapPass one{{&c.consistent}, &c.selected};
    SpaOptions options;
    options.threads = 2;
    bool cancelled = false;
    const std::vector<double> cpu_three = bootstrap_maxima(c.d, c.resamples, three, options, cancelled);
    const std::vector<double> cpu_one = bootstrap_maxima(c.d, c.resamples, one, options, cancelled);
    CHECK_FALSE(cancelled);
    for (const unsigned target_blocks : {1u, 7u, 64u, 1000u}) {
        for (const unsigned tile : {1u, 5u, 16u}) {
            CAPTURE(target_blocks);
            CAPTURE(tile);
            CHECK(same_bits(on_host_grid(c, three, target_blocks, tile), cpu_three));
            CHECK(same_bits(on_host_grid(c, one, target_blocks, tile), cpu_one));
        }
    }
}

TEST_CASE("nothing selected: every maximum is -inf, as on the CPU") {
    Case c = make_case(5, 20, 16, 130);
    std::fill(c.selected.begin(), c.selected.end(), 0);
    const BootstrapPass pass{{&c.consistent}, &c.selected};
    bool cancelled = false;
    const std::vector<double> cpu = bootstrap_maxima(c.d, c.resamples, pass, SpaOptions{}, cancelled);
    CHECK(same_bits(on_host_grid(c, pass, 10, 16), cpu));
    CHECK(cpu.front() == -std::numeric_limits<double>::infinity());
}

// A BootstrapScan that runs the kernel's logic on the host: the whole SPA
// (three recenterings, then StepM's passes) through the device's path.
class HostGridScan final : public BootstrapScan {
public:
    explicit HostGridScan(const Case& c) : c_(c) {}
    std::vector<double> maxima(const BootstrapPass& pass) override { return on_host_grid(c_, pass, 33, 16); }
    std::vector<double> variances(std::span<const double> kappa) override {
        std::vector<double> out(c_.d.count);
        cuda::spa_variances_on_host(device::SpaVarianceLaunch{c_.values.data(), kappa.data(), out.data(), c_.d.count,
                                                              c_.d.observations});
        return out;
    }
    std::string where() const override { return "host grid"; }

private:
    const Case& c_;
};

TEST_CASE("the SPA and StepM through the device's path equal the CPU's") {
    // An edge in a third of the streams, so StepM takes several passes.
    Case c = make_case(9, 90, 64, 300);
    for (std::uint64_t k = 0; k < c.d.count; k += 3) {
        for (int t = 0; t < 64; ++t) c.values[k * 64 + t] += 0.004 + 0.0001 * static_cast<double>(k);
    }
    const StationaryBootstrapPlan plan{64, 4.0, 300, 9};
    SpaOptions cpu;
    cpu.mean_block = 4.0;
    cpu.threads = 2;
    const SpaReport a = superior_predictive_ability(c.d, stationary_bootstrap_counts(plan), cpu);
    SpaOptions device = cpu;
    device.device = [&](const Differentials&, std::span<const SparseResample>) {
        return std::make_unique<HostGridScan>(c);
    };
    const SpaReport b = superior_predictive_ability(c.d, stationary_bootstrap_counts(plan), device);
    CHECK(a.device.empty());
    CHECK(b.device == "host grid");
    CHECK(a.steps >= 2);
    CHECK(std::memcmp(&a.pvalue_consistent, &b.pvalue_consistent, sizeof(double)) == 0);
    CHECK(std::memcmp(&a.pvalue_upper, &b.pvalue_upper, sizeof(double)) == 0);
    CHECK(std::memcmp(&a.pvalue_lower, &b.pvalue_lower, sizeof(double)) == 0);
    CHECK(std::memcmp(&a.critical_value, &b.critical_value, sizeof(double)) == 0);
    CHECK(a.superior == b.superior);
    CHECK(a.steps == b.steps);
}

TEST_CASE("the kernel's variances on the host are the CPU's, bit for bit") {
    for (const int observations : {3, 40, 255, 383}) {
        CAPTURE(observations);
        const Case c = make_case(11, 37, observations, 1);  // 37: two full blocks of 16 and a partial one
        const std::vector<double> kappa = stationary_bootstrap_kappa(observations, 6.5);
        std::vector<double> out(c.d.count);
        cuda::spa_variances_on_host(
            device::SpaVarianceLaunch{c.values.data(), kappa.data(), out.data(), c.d.count, observations});
        CHECK(same_bits(out, stationary_bootstrap_variances(c.d, 6.5, 2)));
    }
    CHECK(device::kSpaMaxVarianceObservations == 383);  // 16 rows of 383 doubles: 49 024 bytes
}

TEST_CASE("tiles: the widest within the shared memory, none for streams too long") {
    CHECK(device::spa_tile_width(256) == 16);  // 256 x 17 x 8 = 34 816 bytes
    CHECK(device::spa_tile_width(384) == 15);  // 384 x 15 x 8 = 46 080; 16 pads to 17: 52 224
    CHECK(device::spa_tile_width(6144) == 1);
    CHECK(device::spa_tile_width(6145) == 0);
    CHECK(device::spa_tile_width(0) == 0);
    const cuda::SpaGrid grid = cuda::spa_grid(1000, 1'048'576, 132 * 16);
    CHECK(grid.resample_blocks == 8);
    CHECK(grid.chunks * grid.chunk >= 1'048'576);
    CHECK((grid.chunks - 1) * grid.chunk < 1'048'576);
}

}  // namespace
}  // namespace btforge

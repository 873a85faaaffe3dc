#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "host/backends/launch_tables.h"
#include "host/cuda/kernel_image.h"
#include "host/cuda/top_n_device.h"
#include "host/engine/row_outcome.h"

namespace btforge::cuda {
namespace {

// Values chosen to collide: few distinct numbers and both zeros, so ties
// (broken by id) decide many comparisons.
double tricky_double(std::mt19937_64& rng) {
    static const double kValues[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.25, 1e300, -1e-300,
                                     std::numeric_limits<double>::denorm_min()};
    return kValues[rng() % std::size(kValues)];
}

// Infinities and NaNs, which make a row invalid (Note [Rows with non-finite
// metrics]) except profit_factor's +inf.
double non_finite(std::mt19937_64& rng) {
    static const double kValues[] = {std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN(),
                                     -std::numeric_limits<double>::quiet_NaN()};
    return kValues[rng() % std::size(kValues)];
}

device::Metrics random_row(std::mt19937_64& rng) {
    device::Metrics m{};
    m.final_equity = tricky_double(rng);
    m.total_return = tricky_double(rng);
    m.net_pnl = tricky_double(rng);
    m.gross_profit = tricky_double(rng);
    m.gross_loss = tricky_double(rng);
    m.fees_paid = tricky_double(rng);
    m.funding_paid = tricky_double(rng);
    m.n_trades = static_cast<int>(rng() % 5) - 1;
    m.n_wins = static_cast<int>(rng() % 3);
    m.win_rate = tricky_double(rng);
    m.profit_factor = tricky_double(rng);
    m.max_drawdown = tricky_double(rng);
    m.sharpe = tricky_double(rng);
    m.sortino = tricky_double(rng);
    m.calmar = tricky_double(rng);
    m.exposure = tricky_double(rng);
    m.avg_trade_return = tricky_double(rng);
    m.max_consecutive_losses = static_cast<int>(rng() % 4);
    // A third of the rows get one non-finite field, any of them; a sixth a
    // profit factor of +inf, which is valid.
    double* doubles[] = {&m.final_equity, &m.total_return, &m.net_pnl, &m.gross_profit, &m.gross_loss,
                         &m.fees_paid, &m.funding_paid, &m.win_rate, &m.profit_factor, &m.max_drawdown,
                         &m.sharpe, &m.sortino, &m.calmar, &m.exposure, &m.avg_trade_return};
    switch (rng() % 6) {
        case 0:
        case 1: *doubles[rng() % std::size(doubles)] = non_finite(rng); break;
        case 2: m.profit_factor = std::numeric_limits<double>::infinity(); break;
        default: break;
    }
    return m;
}

struct Chunk {
    std::vector<unsigned long long> ids;
    std::vector<device::Metrics> rows;
    int n_periods = 0;
    std::vector<device::PeriodStatistics> periods;  // n_periods per row
};

// Unique ids in shuffled order: the device must not rely on ids growing
// with the row's position.
Chunk random_chunk(std::mt19937_64& rng, std::size_t count) {
    Chunk chunk;
    chunk.ids.resize(count);
    std::iota(chunk.ids.begin(), chunk.ids.end(), 1000ull);
    std::shuffle(chunk.ids.begin(), chunk.ids.end(), rng);
    for (std::size_t i = 0; i < count; ++i) chunk.rows.push_back(random_row(rng));
    return chunk;
}

bool same_bits(const Metrics& a, const Metrics& b) { return std::memcmp(&a, &b, sizeof(Metrics)) == 0; }

// n_trades is -1..3 in random_row: a minimum of 2 puts rows in every group
// of Note [Rows with few trades].
constexpr int kMinTrades = 2;

// The outcome key of row i, as the host makes it.
OutcomeKey host_key(const Chunk& chunk, std::size_t i) {
    std::vector<PeriodStatistics> periods(static_cast<std::size_t>(chunk.n_periods));
    if (chunk.n_periods != 0) to_host(chunk.periods.data() + i * chunk.n_periods, periods.size(), periods.data());
    return outcome_of(to_host(chunk.rows[i]), periods);
}

// The top N through the emulated kernel, then the host TopOutcomes.
std::vector<ResultRow> device_path(const Chunk& chunk, const RankOrder& order, std::size_t top_n) {
    device::TopNSelectLaunch launch = top_n_select_launch(order, top_n, chunk.ids.size());
    const std::size_t outputs = static_cast<std::size_t>(device::top_n_blocks(launch.count)) * launch.keep;
    std::vector<unsigned long long> out_ids(outputs);
    std::vector<device::Metrics> out_rows(outputs);
    std::vector<OutcomeKey> out_keys(outputs);
    std::vector<OutcomeKey> keys(chunk.ids.size());
    launch.rows = chunk.rows.data();
    launch.ids = chunk.ids.data();
    launch.periods = chunk.n_periods != 0 ? chunk.periods.data() : nullptr;
    launch.n_periods = chunk.n_periods;
    launch.keys = keys.data();
    launch.out_ids = out_ids.data();
    launch.out_rows = out_rows.data();
    launch.out_keys = out_keys.data();
    unsigned long long invalid = 0;
    launch.invalid_rows = &invalid;
    top_n_select_on_host(launch);
    // The kernel counts every invalid row of the chunk, winners or not, and
    // keys every row as the host does.
    std::uint64_t expected_invalid = 0;
    for (const device::Metrics& row : chunk.rows) expected_invalid += metrics_are_finite(to_host(row)) ? 0 : 1;
    CHECK(invalid == expected_invalid);
    for (std::size_t i = 0; i < keys.size(); ++i) REQUIRE(keys[i] == host_key(chunk, i));
    TopOutcomes top(order, top_n);
    offer_block_winners(out_ids.data(), out_rows.data(), out_keys.data(), launch.count, launch.keep, top);
    return top.sorted_rows();
}

// Every row offered on the host, as the CUDA sweep does when every row
// comes back.
std::vector<ResultRow> host_path(const Chunk& chunk, const RankOrder& order, std::size_t top_n) {
    TopOutcomes top(order, top_n);
    for (std::size_t i = 0; i < chunk.ids.size(); ++i) {
        top.offer(ResultRow{chunk.ids[i], to_host(chunk.rows[i])}, host_key(chunk, i));
    }
    return top.sorted_rows();
}

void check_same_rows(const std::vector<ResultRow>& actual, const std::vector<ResultRow>& expected) {
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CHECK(actual[i].combination_id == expected[i].combination_id);
        CHECK(same_bits(actual[i].metrics, expected[i].metrics));
    }
}

// Note [Distinct outcomes on the device]: `count` rows drawn from `pool`
// outcomes, the early ones far more often (the best of a sweep is often
// one outcome many times), each with `n_periods` period statistics that
// may differ where the metrics do not.
Chunk repeated_chunk(std::mt19937_64& rng, std::size_t count, std::size_t pool, int n_periods) {
    const Chunk distinct = random_chunk(rng, pool);
    std::vector<device::PeriodStatistics> pool_periods(pool * static_cast<std::size_t>(n_periods));
    for (std::size_t i = 0; i < pool_periods.size(); ++i) {
        pool_periods[i].return_sum = static_cast<double>(rng() % 2);
        pool_periods[i].bars = static_cast<int>(rng() % 2);
    }
    Chunk chunk;
    chunk.n_periods = n_periods;
    chunk.ids.resize(count);
    std::iota(chunk.ids.begin(), chunk.ids.end(), 7ull);
    std::shuffle(chunk.ids.begin(), chunk.ids.end(), rng);
    for (std::size_t i = 0; i < count; ++i) {
        // The smaller of two draws: the low outcomes repeat most.
        const std::size_t k = std::min(rng() % pool, rng() % pool);
        // Half the rows take outcome k's metrics with the periods of k or of
        // k ^ 1: equal metrics, other periods, another outcome.
        chunk.rows.push_back(distinct.rows[k]);
        const std::size_t periods_of = (rng() % 2 == 0 ? k : k ^ 1) % pool;
        for (int p = 0; p < n_periods; ++p) chunk.periods.push_back(pool_periods[periods_of * n_periods + p]);
    }
    return chunk;
}

TEST_CASE("the rank key order is ranks_before's, for every metric and minimum of trades") {
    std::mt19937_64 rng(7);
    std::vector<device::Metrics> rows;
    for (int i = 0; i < 120; ++i) rows.push_back(random_row(rng));
    for (const MetricColumn& column : metric_columns()) {
        for (int min_trades : {0, kMinTrades, 4}) {
            CAPTURE(column.name);
            CAPTURE(min_trades);
            const RankOrder order{&column, min_trades};
            const DeviceMetricField field = device_metric_field(column);
            for (std::size_t a = 0; a < rows.size(); ++a) {
                for (std::size_t b = 0; b < rows.size(); ++b) {
                    // Few ids so that equal ids also occur.
                    const ResultRow ra{a % 17, to_host(rows[a])};
                    const ResultRow rb{b % 17, to_host(rows[b])};
                    const auto key = [&](const device::Metrics& m) {
                        return device::top_n_row_key(m, field.offset, field.integral, column.higher_is_better);
                    };
                    const bool device_before = device::top_n_entry_before(
                        device::top_n_row_tier(rows[a], min_trades), key(rows[a]), ra.combination_id, 0,
                        device::top_n_row_tier(rows[b], min_trades), key(rows[b]), rb.combination_id, 0);
                    CHECK(device_before == ranks_before(order, ra, rb));
                }
            }
        }
    }
}

TEST_CASE("a row's group on the device is the host's: few trades after the others, invalid last") {
    std::mt19937_64 rng(13);
    int groups[3] = {0, 0, 0};
    for (int i = 0; i < 2000; ++i) {
        const device::Metrics row = random_row(rng);
        const unsigned char tier = device::top_n_row_tier(row, kMinTrades);
        const RankKey host = rank_key(RankOrder{find_metric_column("sharpe"), kMinTrades}, ResultRow{0, to_host(row)});
        CHECK(tier == static_cast<unsigned char>(host.tier));
        CHECK((tier == device::kInvalidTier) == !metrics_are_finite(to_host(row)));
        CHECK((tier == static_cast<unsigned char>(RankTier::FewTrades)) ==
              (metrics_are_finite(to_host(row)) && row.n_trades < kMinTrades));
        ++groups[tier];
    }
    // The sample holds every group.
    for (int count : groups) CHECK(count > 300);
}

TEST_CASE("a row gets the NaN key exactly when its metrics are not all finite") {
    std::mt19937_64 rng(5);
    int invalid = 0;
    for (int i = 0; i < 2000; ++i) {
        const device::Metrics row = random_row(rng);
        for (const MetricColumn& column : metric_columns()) {
            const DeviceMetricField field = device_metric_field(column);
            const bool nan_key =
                device::top_n_row_key(row, field.offset, field.integral, column.higher_is_better) == device::kNanRankKey;
            CHECK(nan_key == !metrics_are_finite(to_host(row)));
        }
        invalid += metrics_are_finite(to_host(row)) ? 0 : 1;
    }
    // The sample holds both kinds.
    CHECK(invalid > 400);
    CHECK(invalid < 1000);
}

TEST_CASE("metrics_are_finite: every field counts, profit_factor may be +inf") {
    Metrics m{};
    CHECK(metrics_are_finite(m));
    m.profit_factor = std::numeric_limits<double>::infinity();
    CHECK(metrics_are_finite(m));
    m.profit_factor = -std::numeric_limits<double>::infinity();
    CHECK_FALSE(metrics_are_finite(m));
    m.profit_factor = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(metrics_are_finite(m));
    double Metrics::*fields[] = {&Metrics::final_equity, &Metrics::total_return, &Metrics::net_pnl,
                                 &Metrics::gross_profit, &Metrics::gross_loss, &Metrics::fees_paid,
                                 &Metrics::funding_paid, &Metrics::win_rate, &Metrics::max_drawdown,
                                 &Metrics::sharpe, &Metrics::sortino, &Metrics::calmar, &Metrics::exposure,
                                 &Metrics::avg_trade_return};
    for (double Metrics::*field : fields) {
        for (double bad : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()}) {
            Metrics row{};
            row.*field = bad;
            CHECK_FALSE(metrics_are_finite(row));
        }
        Metrics row{};
        row.*field = std::numeric_limits<double>::max();
        CHECK(metrics_are_finite(row));
    }
}

TEST_CASE("NaN keys are after every number in both directions") {
    const double numbers[] = {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                              -0.0, 0.0, std::numeric_limits<double>::max(), -std::numeric_limits<double>::max()};
    for (bool higher : {false, true}) {
        for (double x : numbers) CHECK(device::top_n_rank_key(x, higher) < device::kNanRankKey);
        CHECK(device::top_n_rank_key(std::numeric_limits<double>::quiet_NaN(), higher) == device::kNanRankKey);
        CHECK(device::top_n_rank_key(-0.0, higher) == device::top_n_rank_key(0.0, higher));
    }
}

TEST_CASE("device_metric_field reads the column's field of device::Metrics") {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 20; ++trial) {
        device::Metrics row{};
        // Distinct values in every field, so a wrong offset reads another one.
        double* doubles[] = {&row.final_equity, &row.total_return, &row.net_pnl, &row.gross_profit,
                             &row.gross_loss, &row.fees_paid, &row.funding_paid, &row.win_rate,
                             &row.profit_factor, &row.max_drawdown, &row.sharpe, &row.sortino, &row.calmar,
                             &row.exposure, &row.avg_trade_return};
        double next = static_cast<double>(rng() % 1000) + 0.25;
        for (double* field : doubles) *field = next++;
        row.n_trades = static_cast<int>(next++);
        row.n_wins = static_cast<int>(next++);
        row.max_consecutive_losses = static_cast<int>(next++);
        for (const MetricColumn& column : metric_columns()) {
            CAPTURE(column.name);
            const DeviceMetricField field = device_metric_field(column);
            CHECK(field.integral == column.integral);
            CHECK(device::top_n_read_metric(row, field.offset, field.integral) == column.read(to_host(row)));
        }
    }
}

TEST_CASE("the emulated selection kernel gives the host's top N, bit for bit") {
    std::mt19937_64 rng(2024);
    // Below a tile, exactly one, exactly two, and ragged last tiles.
    const std::size_t counts[] = {1, 5, 1023, 1024, 2048, 3001, 5555};
    const std::size_t tops[] = {1, 3, 10, 100, 511, 1023};
    for (std::size_t count : counts) {
        const Chunk chunk = random_chunk(rng, count);
        for (const MetricColumn& column : metric_columns()) {
            for (std::size_t top_n : tops) {
                CAPTURE(count);
                CAPTURE(column.name);
                CAPTURE(top_n);
                const RankOrder order{&column, kMinTrades};
                check_same_rows(device_path(chunk, order, top_n), host_path(chunk, order, top_n));
            }
        }
    }
}

TEST_CASE("the emulated selection kernel keeps the host's top N outcomes when rows repeat") {
    std::mt19937_64 rng(77);
    const std::size_t counts[] = {1, 2, 1023, 1024, 2049, 5555};
    for (std::size_t count : counts) {
        for (std::size_t pool : {1ul, 3ul, 40ul, 700ul}) {
            for (int n_periods : {0, 3}) {
                const Chunk chunk = repeated_chunk(rng, count, pool, n_periods);
                for (const char* metric : {"sharpe", "max_drawdown", "n_trades"}) {
                    for (std::size_t top_n : {1ul, 3ul, 20ul, 300ul}) {
                        CAPTURE(count);
                        CAPTURE(pool);
                        CAPTURE(n_periods);
                        CAPTURE(metric);
                        CAPTURE(top_n);
                        const RankOrder order{find_metric_column(metric), kMinTrades};
                        const std::vector<ResultRow> expected = host_path(chunk, order, top_n);
                        CHECK(expected.size() <= std::min(pool * 2, count));  // outcomes, not rows
                        check_same_rows(device_path(chunk, order, top_n), expected);
                    }
                }
            }
        }
    }
}

TEST_CASE("a block's winners come out in ranks_before order") {
    // The bitonic network sorts the whole tile, not only its head.
    std::mt19937_64 rng(3);
    const Chunk chunk = random_chunk(rng, device::kTopNTile);
    const RankOrder order{find_metric_column("sharpe"), kMinTrades};
    device::TopNSelectLaunch launch = top_n_select_launch(order, device::kTopNTile - 1, chunk.ids.size());
    std::vector<unsigned long long> out_ids(launch.keep);
    std::vector<device::Metrics> out_rows(launch.keep);
    std::vector<OutcomeKey> out_keys(launch.keep);
    std::vector<OutcomeKey> keys(chunk.ids.size());
    launch.rows = chunk.rows.data();
    launch.ids = chunk.ids.data();
    launch.keys = keys.data();
    launch.out_ids = out_ids.data();
    launch.out_rows = out_rows.data();
    launch.out_keys = out_keys.data();
    top_n_select_on_host(launch);
    const std::vector<ResultRow> expected = host_path(chunk, order, launch.keep);
    REQUIRE(expected.size() == launch.keep);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CHECK(out_ids[i] == expected[i].combination_id);
        CHECK(same_bits(to_host(out_rows[i]), expected[i].metrics));
    }
}

TEST_CASE("the device selection serves small N without --all-rows only") {
    CHECK(device_top_n_applies(1, false));
    CHECK(device_top_n_applies(device::kTopNTile - 1, false));
    CHECK_FALSE(device_top_n_applies(0, false));
    CHECK_FALSE(device_top_n_applies(device::kTopNTile, false));
    CHECK_FALSE(device_top_n_applies(10, true));
}

TEST_CASE("the selection kernel is embedded exactly when the strategy kernels are") {
    const std::span<const unsigned char> image = embedded_top_n_select_image();
    CHECK(image.empty() == !embedded_kernel_build().built_with_nvcc);
    if (!image.empty()) CHECK(classify_kernel_image(image) == KernelImageKind::fatbin);
}

TEST_CASE("the chunk planner's bound on a slot's winners area holds for every chunk and keep") {
    const std::uint64_t row = sizeof(unsigned long long) + sizeof(device::Metrics) + sizeof(OutcomeKey);
    for (unsigned keep : {1u, 10u, 20u, 512u, 1023u}) {
        const TopNAreaBytes bound = device_top_n_area_bytes(keep);
        for (std::uint64_t chunk : {1ull, 1023ull, 1024ull, 1025ull, 104960ull, 262144ull, 262145ull, 10'000'000ull}) {
            INFO("keep " << keep << ", chunk " << chunk);
            // What DeviceTopN allocates on the device for one slot: the
            // winners and every row's outcome key.
            const std::uint64_t allocated =
                static_cast<std::uint64_t>(device::top_n_blocks(chunk)) * keep * row + chunk * sizeof(OutcomeKey);
            CHECK(allocated <= chunk * bound.per_combination + bound.per_slot);
            // Not far above it: less than one tile's winners and one byte per combination more.
            CHECK(chunk * bound.per_combination + bound.per_slot <= allocated + keep * row + chunk);
        }
    }
    CHECK(device_top_n_area_bytes(0).per_combination == 0);
}

}  // namespace
}  // namespace btforge::cuda

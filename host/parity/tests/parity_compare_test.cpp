#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include "host/parity/parity_compare.h"
#include "host/parity/parity_market.h"

#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

using namespace btforge;
using namespace btforge::parity;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

ResultRow row(std::uint64_t id) {
    ResultRow r{};
    r.combination_id = id;
    r.metrics.final_equity = 10500.0;
    r.metrics.sharpe = 1.25;
    r.metrics.profit_factor = kInf;
    r.metrics.sortino = kNaN;
    r.metrics.n_trades = 7;
    r.metrics.n_wins = 4;
    r.metrics.max_consecutive_losses = 2;
    return r;
}

const FieldStats& field(const Comparison& c, const char* name) {
    for (const FieldStats& f : c.fields) {
        if (f.name == name) return f;
    }
    FAIL("no field " << name);
    return c.fields.front();
}

}  // namespace

TEST_CASE("ULP distance counts representable doubles") {
    CHECK(ulp_distance(1.0, 1.0) == 0);
    CHECK(ulp_distance(1.0, std::nextafter(1.0, 2.0)) == 1);
    CHECK(ulp_distance(std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0)) == 2);
    CHECK(ulp_distance(-1.0, std::nextafter(-1.0, -2.0)) == 1);
    // Across zero: -denorm_min, -0/+0, +denorm_min are neighbours.
    constexpr double tiny = std::numeric_limits<double>::denorm_min();
    CHECK(ulp_distance(-tiny, tiny) == 2);
    CHECK(ulp_distance(0.0, -0.0) == 0);
    CHECK(ulp_distance(kNaN, kNaN) == 0);
    CHECK(ulp_distance(kNaN, 1.0) == UINT64_MAX);
    CHECK(ulp_distance(std::numeric_limits<double>::max(), kInf) == 1);
    CHECK(ulp_distance(-kInf, kInf) > (std::uint64_t{1} << 63));
}

TEST_CASE("bit identity: same bits, or both NaN") {
    CHECK(bit_identical(0.1, 0.1));
    CHECK_FALSE(bit_identical(0.0, -0.0));
    CHECK(bit_identical(kNaN, -kNaN));
    CHECK_FALSE(bit_identical(kNaN, 0.0));
    CHECK(bit_identical(kInf, kInf));
    CHECK_FALSE(bit_identical(kInf, -kInf));
}

TEST_CASE("tolerance: |b - r| <= 1e-12 * max(1, |r|)") {
    // Absolute near zero...
    CHECK(within_tolerance(1e-13, 0.0));
    CHECK(within_tolerance(0.5 + 1e-12, 0.5));
    CHECK_FALSE(within_tolerance(0.5 + 2e-12, 0.5));
    // ...relative above one.
    CHECK(within_tolerance(1e6 * (1.0 + 0.9e-12), 1e6));
    CHECK_FALSE(within_tolerance(1e6 * (1.0 + 1.1e-12), 1e6));
    CHECK(within_tolerance(kNaN, kNaN));
    CHECK_FALSE(within_tolerance(kNaN, 1.0));
    CHECK_FALSE(within_tolerance(1.0, kNaN));
    CHECK(within_tolerance(kInf, kInf));
    CHECK_FALSE(within_tolerance(-kInf, kInf));
    CHECK_FALSE(within_tolerance(std::numeric_limits<double>::max(), kInf));
    CHECK(relative_error(2.0, 2.0) == 0.0);
    CHECK(relative_error(0.5 + 1e-12, 0.5) == doctest::Approx(1e-12).epsilon(1e-3));
    CHECK(std::isinf(relative_error(1.0, kInf)));
}

TEST_CASE("identical runs pass with every value bit-identical") {
    std::vector<ResultRow> a{row(3), row(9)}, b{row(3), row(9)};
    Comparison c = compare_rows(a, b);
    CHECK(c.passed());
    CHECK(c.rows == 2);
    CHECK(c.identical_values() == c.total_values());
    CHECK(c.total_values() == 2 * c.fields.size());
    CHECK(c.fields.size() == 22);  // every field of Metrics (Note [Every field compared])
}

TEST_CASE("a real field within tolerance passes but is not identical") {
    std::vector<ResultRow> backend{row(1)}, reference{row(1)};
    backend[0].metrics.sharpe = std::nextafter(1.25, 2.0);
    Comparison c = compare_rows(backend, reference);
    CHECK(c.passed());
    const FieldStats& sharpe = field(c, "sharpe");
    CHECK(sharpe.identical == 0);
    CHECK(sharpe.max_ulp == 1);
    CHECK(sharpe.failed == 0);
}

TEST_CASE("a discrete field must be equal; divergences are listed in order") {
    std::vector<ResultRow> backend{row(5), row(6)}, reference{row(5), row(6)};
    backend[1].metrics.n_trades = 8;
    backend[1].metrics.final_equity = 10600.0;
    Comparison c = compare_rows(backend, reference);
    CHECK_FALSE(c.passed());
    CHECK(c.failed_values == 2);
    CHECK(c.failed_rows == 1);
    REQUIRE(c.failures.size() == 2);
    CHECK(c.failures[0].field == "final_equity");
    CHECK(c.failures[0].combination_id == 6);
    CHECK(c.failures[0].ordinal == 1);
    CHECK(c.failures[0].backend == 10600.0);
    CHECK(c.failures[0].reference == 10500.0);
    CHECK(c.failures[1].field == "n_trades");
    CHECK(field(c, "n_trades").max_ulp == 1);
    CHECK(field(c, "n_trades").discrete);
    CHECK_FALSE(field(c, "sharpe").discrete);
}

TEST_CASE("NaN against a number fails") {
    std::vector<ResultRow> backend{row(1)}, reference{row(1)};
    backend[0].metrics.sortino = 0.0;
    Comparison c = compare_rows(backend, reference);
    CHECK_FALSE(c.passed());
    CHECK(field(c, "sortino").max_ulp == UINT64_MAX);
}

TEST_CASE("runs over different combinations are a harness error") {
    std::vector<ResultRow> a{row(1)}, b{row(2)}, two{row(1), row(2)};
    CHECK_THROWS_AS(compare_rows(a, b), std::invalid_argument);
    CHECK_THROWS_AS(compare_rows(a, two), std::invalid_argument);
}

TEST_CASE("a failing run's market goes beside the report, or into a folder of its own; never the working directory") {
    namespace fs = std::filesystem;
    const fs::path temp_root = fs::temp_directory_path() / ("btforge-failing-market-test-" + std::to_string(::getpid()));
    fs::remove_all(temp_root);
    fs::create_directories(temp_root);
    SUBCASE("beside the report") {
        auto [data, instruments] = parity::failing_market_files("logs/parity.json", 7, temp_root);
        CHECK(data == "logs/parity-seed7-market.csv");
        CHECK(instruments == "logs/parity-seed7-instruments.json");
    }
    SUBCASE("without a report: a new folder under the temporary root, one per run") {
        auto [data, instruments] = parity::failing_market_files("", 7, temp_root);
        auto [data2, instruments2] = parity::failing_market_files("", 7, temp_root);
        CHECK(fs::path(data).parent_path().parent_path() == temp_root);
        CHECK(fs::is_directory(fs::path(data).parent_path()));
        CHECK(fs::path(data).filename() == "btforge-parity-seed7-market.csv");
        CHECK(fs::path(instruments).parent_path() == fs::path(data).parent_path());
        CHECK(fs::path(data2).parent_path() != fs::path(data).parent_path());
    }
    SUBCASE("a temporary root that cannot hold a folder is an error naming it") {
        CHECK_THROWS_WITH_AS(parity::failing_market_files("", 7, temp_root / "missing"),
                             doctest::Contains("cannot create a folder under"), std::system_error);
    }
    fs::remove_all(temp_root);
}

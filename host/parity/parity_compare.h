#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "host/engine/top_n.h"
#include "reference/metrics/period_statistics.h"

namespace btforge::parity {

// Note [Parity verdict]
// SPEC §3, per output field of Metrics (every column of metric_columns()) and
// of PeriodStatistics (period_columns()):
//   discrete fields (n_trades, n_wins, max_consecutive_losses, n_liquidations,
//   ambiguous_bars, magnified_bars) must be equal;
//   a real field passes when |backend - reference| <= 1e-12 * max(1, |reference|),
//   two NaNs being equal and an infinity equal only to itself.
// The verdict is that tolerance; the target is stricter, 100% bit-identical,
// and the report shows how far each field is from it: how many values were
// bit-identical and the largest distance in ULPs. Two NaNs count as
// identical whatever their payload bits: no metric carries meaning in a NaN
// payload, and x86 and CUDA produce different default NaNs.
inline constexpr double kRelativeTolerance = 1e-12;

// Same bits, or both NaN.
bool bit_identical(double a, double b);
// Representable doubles strictly between a and b, plus one (0 when
// bit_identical; +0 and -0 are 0 apart); UINT64_MAX when exactly one is NaN.
std::uint64_t ulp_distance(double a, double b);
// The tolerance rule above.
bool within_tolerance(double backend, double reference);
// |backend - reference| / max(1, |reference|): 0 when bit_identical,
// +inf when they differ and either is not finite.
double relative_error(double backend, double reference);

struct FieldStats {
    std::string name;
    bool discrete = false;
    std::uint64_t total = 0;
    std::uint64_t identical = 0;
    std::uint64_t failed = 0;
    std::uint64_t max_ulp = 0;    // discrete fields: the largest absolute difference
    double max_relative_error = 0.0;
};

struct Divergence {
    std::uint64_t ordinal = 0;
    std::uint64_t combination_id = 0;
    std::string field;
    double backend = 0.0;
    double reference = 0.0;
};

struct Comparison {
    std::uint64_t rows = 0;
    std::vector<FieldStats> fields;      // in metric_columns() order
    std::vector<Divergence> failures;    // the first kMaxListedFailures, in ordinal then field order
    std::uint64_t failed_values = 0;     // all of them
    std::uint64_t failed_rows = 0;

    static constexpr std::size_t kMaxListedFailures = 50;

    bool passed() const { return failed_values == 0; }
    std::uint64_t total_values() const;
    std::uint64_t identical_values() const;
};

// Compares the rows of the same ordinals, field by field, and their
// n_periods period statistics each (Note [Period statistics]; none with
// n_periods 0): one FieldStats per PeriodStatistics field ("period.fees")
// over every period, after the metrics', and a divergence names its period
// ("period 3 fees"); then their n_marks equity marks each (Note [Equity
// marks]), one FieldStats "equity_mark" ("equity mark 7"). Throws
// std::invalid_argument when the two runs did not cover the same
// combinations (lengths or ids differ): that is a harness bug, not a
// numerical divergence.
Comparison compare_rows(std::span<const ResultRow> backend, std::span<const ResultRow> reference,
                        std::span<const PeriodStatistics> backend_periods = {},
                        std::span<const PeriodStatistics> reference_periods = {}, int n_periods = 0,
                        std::span<const double> backend_marks = {}, std::span<const double> reference_marks = {},
                        int n_marks = 0);

}  // namespace btforge::parity

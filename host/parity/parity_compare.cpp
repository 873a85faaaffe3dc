#include "host/parity/parity_compare.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "host/engine/metric_columns.h"
#include "host/engine/period_columns.h"

namespace btforge::parity {

namespace {

// Maps a double to an integer whose order is the doubles' order and whose
// difference counts representable doubles (+0 and -0 both map to 0).
std::int64_t ordered(double x) {
    std::int64_t bits = std::bit_cast<std::int64_t>(x);
    return bits >= 0 ? bits : std::numeric_limits<std::int64_t>::min() - bits;
}

// Note [Every field compared]
// The comparison reads Metrics through metric_columns(), which has to list
// every field. Metrics holds 16 doubles and 5 ints today (152 bytes with the
// padding after the last); a new
// field changes the size and stops the build here until it is added to
// metric_columns() (and so to the comparison) and this count.
static_assert(sizeof(Metrics) == 16 * sizeof(double) + 6 * sizeof(int),
              "Metrics changed: add the new field to metric_columns() and update this count");

}  // namespace

bool bit_identical(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

std::uint64_t ulp_distance(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : UINT64_MAX;
    std::int64_t x = ordered(a), y = ordered(b);
    // Unsigned subtraction: the distance between the extremes exceeds INT64_MAX.
    return x >= y ? static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)
                  : static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x);
}

bool within_tolerance(double backend, double reference) {
    if (std::isnan(backend) || std::isnan(reference)) return std::isnan(backend) && std::isnan(reference);
    if (std::isinf(backend) || std::isinf(reference)) return backend == reference;
    return std::fabs(backend - reference) <= kRelativeTolerance * std::max(1.0, std::fabs(reference));
}

double relative_error(double backend, double reference) {
    if (bit_identical(backend, reference)) return 0.0;
    if (!std::isfinite(backend) || !std::isfinite(reference)) return std::numeric_limits<double>::infinity();
    return std::fabs(backend - reference) / std::max(1.0, std::fabs(reference));
}

std::uint64_t Comparison::total_values() const {
    std::uint64_t n = 0;
    for (const FieldStats& f : fields) n += f.total;
    return n;
}

std::uint64_t Comparison::identical_values() const {
    std::uint64_t n = 0;
    for (const FieldStats& f : fields) n += f.identical;
    return n;
}

namespace {

// One value of one field: the rule of Note [Parity verdict].
bool compare_value(FieldStats& stats, double b, double ref) {
    ++stats.total;
    bool pass;
    if (stats.discrete) {
        // Exact in a double: the columns widen ints.
        pass = b == ref;
        stats.max_ulp = std::max(stats.max_ulp, static_cast<std::uint64_t>(std::fabs(b - ref)));
    } else {
        pass = within_tolerance(b, ref);
        stats.max_ulp = std::max(stats.max_ulp, ulp_distance(b, ref));
        stats.max_relative_error = std::max(stats.max_relative_error, relative_error(b, ref));
    }
    if (bit_identical(b, ref)) ++stats.identical;
    if (!pass) ++stats.failed;
    return pass;
}

}  // namespace

Comparison compare_rows(std::span<const ResultRow> backend, std::span<const ResultRow> reference,
                        std::span<const PeriodStatistics> backend_periods,
                        std::span<const PeriodStatistics> reference_periods, int n_periods,
                        std::span<const double> backend_marks, std::span<const double> reference_marks, int n_marks) {
    if (backend.size() != reference.size()) {
        throw std::invalid_argument("the backend returned " + std::to_string(backend.size()) + " rows, the reference " +
                                    std::to_string(reference.size()));
    }
    const std::size_t periods = static_cast<std::size_t>(std::max(n_periods, 0));
    if (backend_periods.size() != backend.size() * periods || reference_periods.size() != reference.size() * periods) {
        throw std::invalid_argument("the period statistics are not " + std::to_string(periods) + " per row (backend " +
                                    std::to_string(backend_periods.size()) + ", reference " +
                                    std::to_string(reference_periods.size()) + " for " +
                                    std::to_string(backend.size()) + " rows)");
    }
    const std::size_t marks = static_cast<std::size_t>(std::max(n_marks, 0));
    if (backend_marks.size() != backend.size() * marks || reference_marks.size() != reference.size() * marks) {
        throw std::invalid_argument("the equity marks are not " + std::to_string(marks) + " per row (backend " +
                                    std::to_string(backend_marks.size()) + ", reference " +
                                    std::to_string(reference_marks.size()) + " for " + std::to_string(backend.size()) +
                                    " rows)");
    }
    std::span<const MetricColumn> columns = metric_columns();
    std::span<const PeriodColumn> period_fields = period_columns();
    Comparison c;
    c.rows = backend.size();
    for (const MetricColumn& column : columns) c.fields.push_back(FieldStats{std::string(column.name), column.integral});
    if (periods != 0) {
        for (const PeriodColumn& column : period_fields) {
            c.fields.push_back(FieldStats{"period." + std::string(column.name), column.integral});
        }
    }
    const std::size_t mark_field = c.fields.size();
    if (marks != 0) c.fields.push_back(FieldStats{"equity_mark", false});
    auto fail = [&c](std::uint64_t ordinal, std::uint64_t id, std::string field, double b, double ref) {
        ++c.failed_values;
        if (c.failures.size() < Comparison::kMaxListedFailures) {
            c.failures.push_back(Divergence{ordinal, id, std::move(field), b, ref});
        }
    };
    for (std::size_t r = 0; r < backend.size(); ++r) {
        if (backend[r].combination_id != reference[r].combination_id) {
            throw std::invalid_argument("row " + std::to_string(r) + " holds combination " +
                                        std::to_string(backend[r].combination_id) + " from the backend but " +
                                        std::to_string(reference[r].combination_id) + " from the reference");
        }
        const std::uint64_t id = backend[r].combination_id;
        bool row_failed = false;
        for (std::size_t f = 0; f < columns.size(); ++f) {
            const double b = columns[f].read(backend[r].metrics);
            const double ref = columns[f].read(reference[r].metrics);
            if (!compare_value(c.fields[f], b, ref)) {
                row_failed = true;
                fail(r, id, c.fields[f].name, b, ref);
            }
        }
        for (std::size_t p = 0; p < periods; ++p) {
            const PeriodStatistics& bp = backend_periods[r * periods + p];
            const PeriodStatistics& rp = reference_periods[r * periods + p];
            for (std::size_t f = 0; f < period_fields.size(); ++f) {
                const double b = period_fields[f].read(bp);
                const double ref = period_fields[f].read(rp);
                if (!compare_value(c.fields[columns.size() + f], b, ref)) {
                    row_failed = true;
                    fail(r, id, "period " + std::to_string(p) + " " + std::string(period_fields[f].name), b, ref);
                }
            }
        }
        for (std::size_t m = 0; m < marks; ++m) {
            const double b = backend_marks[r * marks + m];
            const double ref = reference_marks[r * marks + m];
            if (!compare_value(c.fields[mark_field], b, ref)) {
                row_failed = true;
                fail(r, id, "equity mark " + std::to_string(m), b, ref);
            }
        }
        if (row_failed) ++c.failed_rows;
    }
    return c;
}

}  // namespace btforge::parity

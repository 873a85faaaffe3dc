#include "host/backends/launch_tables.h"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace btforge {

namespace {

// Copies between a reference struct and its generated twin. The generated
// layout header already asserts each field's offset against the reference's
// x86-64 layout; these asserts make the byte copy itself safe.
template <typename To, typename From>
To copy_layout(const From& from) {
    static_assert(sizeof(To) == sizeof(From), "generated layout and reference differ in size: regenerate generated/");
    static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>);
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}

}  // namespace

device::MarketView to_device(const MarketView& market) { return copy_layout<device::MarketView>(market); }
device::AccountConfig to_device(const AccountConfig& account) { return copy_layout<device::AccountConfig>(account); }
Metrics to_host(const device::Metrics& metrics) { return copy_layout<Metrics>(metrics); }

void to_host(const device::PeriodStatistics* from, std::size_t count, PeriodStatistics* to) {
    static_assert(sizeof(device::PeriodStatistics) == sizeof(PeriodStatistics));
    if (count != 0) std::memcpy(to, from, count * sizeof(PeriodStatistics));
}

void append_to_host(const device::PeriodStatistics* from, std::size_t count, std::vector<PeriodStatistics>& to) {
    for (std::size_t i = 0; i < count; ++i) to.push_back(copy_layout<PeriodStatistics>(from[i]));
}

LaunchTables build_launch_tables(const SweepJob& job) {
    if (job.space == nullptr) throw std::invalid_argument("a sweep launch needs the job's combination space");
    const StrategySpec& spec = *job.spec;
    const CombinationSpace& space = *job.space;
    std::size_t n_parameters = spec.parameters.size();

    LaunchTables tables;
    tables.market = to_device(job.market->view());
    tables.window = job.window;
    tables.account = to_device(job.account);

    // Spec order: CombinationSpace keeps its digits most significant first.
    std::vector<const CombinationSpace::Digit*> by_parameter(n_parameters, nullptr);
    for (const CombinationSpace::Digit& digit : space.digits()) by_parameter.at(digit.parameter) = &digit;
    tables.radix.resize(n_parameters);
    tables.stride.resize(n_parameters);
    tables.value_offset.resize(n_parameters);
    for (std::size_t p = 0; p < n_parameters; ++p) {
        const CombinationSpace::Digit* digit = by_parameter[p];
        if (digit == nullptr) throw std::invalid_argument("the combination space lacks parameter " + spec.parameters[p].name);
        tables.radix[p] = digit->radix;
        tables.stride[p] = digit->stride;
        if (tables.values.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
            throw std::invalid_argument("the grid's value lists do not fit int offsets");
        }
        tables.value_offset[p] = static_cast<int>(tables.values.size());
        tables.values.insert(tables.values.end(), digit->values.begin(), digit->values.end());
    }

    tables.series = job.series->data();
    // Any grid value will do for the parameters a use does not take; the
    // first of each keeps the lookups valid.
    std::vector<double> values(n_parameters);
    for (std::size_t p = 0; p < n_parameters; ++p) values[p] = by_parameter[p]->values.front();
    for (std::size_t u = 0; u < spec.indicators.size(); ++u) {
        const IndicatorUse& use = spec.indicators[u];
        tables.series_table.push_back(static_cast<int>(tables.series_offset.size()));
        std::uint64_t locals = 1;
        for (const IndicatorArg& arg : use.args) {
            if (arg.parameter) locals *= by_parameter[*arg.parameter]->radix;
        }
        for (std::uint64_t k = 0; k < locals; ++k) {
            // Digits of k, the last argument least significant. A parameter
            // taken twice gets the digit of its first argument (assigned
            // last); the entries where its two digits differ are never read.
            std::uint64_t rest = k;
            for (std::size_t a = use.args.size(); a-- > 0;) {
                const IndicatorArg& arg = use.args[a];
                if (!arg.parameter) continue;
                const CombinationSpace::Digit& digit = *by_parameter[*arg.parameter];
                values[*arg.parameter] = digit.values[rest % digit.radix];
                rest /= digit.radix;
            }
            tables.series_offset.push_back(static_cast<long long>(job.series->offset(u, values)) +
                                           job.window.first_bar);
        }
        for (const IndicatorArg& arg : use.args) {
            if (arg.parameter) values[*arg.parameter] = by_parameter[*arg.parameter]->values.front();
        }
    }
    return tables;
}

device::SweepLaunch LaunchTables::launch(std::span<const unsigned long long> ids, device::Metrics* rows,
                                         device::PeriodStatistics* periods, double* marks) const {
    device::SweepLaunch l{};
    l.market = window_view(market, window);
    l.account = account;
    l.radix = radix.data();
    l.stride = stride.data();
    l.value_offset = value_offset.data();
    l.values = values.data();
    l.series = series;
    l.series_offset = series_offset.data();
    l.series_table = series_table.data();
    l.combination_ids = ids.data();
    l.count = ids.size();
    l.rows = rows;
    l.periods = periods;
    l.marks = marks;
    return l;
}

}  // namespace btforge

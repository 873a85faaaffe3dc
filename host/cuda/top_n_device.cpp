#include "host/cuda/top_n_device.h"

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "host/backends/launch_tables.h"
#include "host/cuda/kernel_image.h"

namespace btforge::cuda {

namespace {

constexpr const char* kEntry = "btforge_top_n_select";

// device::Metrics' fields in the order of metric_columns().
constexpr std::array<DeviceMetricField, 22> kFields{{
    {offsetof(device::Metrics, final_equity), false},
    {offsetof(device::Metrics, total_return), false},
    {offsetof(device::Metrics, net_pnl), false},
    {offsetof(device::Metrics, gross_profit), false},
    {offsetof(device::Metrics, gross_loss), false},
    {offsetof(device::Metrics, fees_paid), false},
    {offsetof(device::Metrics, funding_paid), false},
    {offsetof(device::Metrics, n_trades), true},
    {offsetof(device::Metrics, n_wins), true},
    {offsetof(device::Metrics, win_rate), false},
    {offsetof(device::Metrics, profit_factor), false},
    {offsetof(device::Metrics, max_drawdown), false},
    {offsetof(device::Metrics, sharpe), false},
    {offsetof(device::Metrics, sortino), false},
    {offsetof(device::Metrics, calmar), false},
    {offsetof(device::Metrics, exposure), false},
    {offsetof(device::Metrics, avg_trade_return), false},
    {offsetof(device::Metrics, max_consecutive_losses), true},
    {offsetof(device::Metrics, n_liquidations), true},
    {offsetof(device::Metrics, liquidation_loss), false},
    {offsetof(device::Metrics, ambiguous_bars), true},
    {offsetof(device::Metrics, magnified_bars), true},
}};

unsigned keep_for(std::size_t top_n) {
    return static_cast<unsigned>(top_n < device::kTopNTile ? top_n : device::kTopNTile);
}

}  // namespace

DeviceMetricField device_metric_field(const MetricColumn& column) {
    const std::span<const MetricColumn> columns = metric_columns();
    if (columns.size() != kFields.size()) {
        throw std::logic_error("metric_columns() and device::Metrics disagree: update kFields in top_n_device.cpp");
    }
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (&columns[i] == &column || columns[i].name == column.name) return kFields[i];
    }
    throw std::invalid_argument("no device field for metric '" + std::string(column.name) + "'");
}

bool device_top_n_applies(std::size_t top_n, bool keep_all_rows) {
    return !keep_all_rows && top_n >= 1 && top_n < device::kTopNTile;
}

TopNAreaBytes device_top_n_area_bytes(unsigned keep) {
    const std::uint64_t winners =
        static_cast<std::uint64_t>(keep) * (sizeof(unsigned long long) + sizeof(device::Metrics) + sizeof(OutcomeKey));
    TopNAreaBytes bytes;
    bytes.per_combination = (winners + device::kTopNTile - 1) / device::kTopNTile;
    if (keep != 0) bytes.per_combination += sizeof(OutcomeKey);  // every row's key
    bytes.per_slot = winners;
    return bytes;
}

device::TopNSelectLaunch top_n_select_launch(const RankOrder& order, std::size_t top_n, std::uint64_t count) {
    const DeviceMetricField field = device_metric_field(*order.metric);
    device::TopNSelectLaunch launch{};
    launch.count = count;
    launch.metric_offset = field.offset;
    launch.metric_integral = field.integral ? 1 : 0;
    launch.higher_is_better = order.metric->higher_is_better ? 1 : 0;
    launch.keep = keep_for(top_n);
    launch.min_trades = order.min_trades;
    return launch;
}

void top_n_select_on_host(const device::TopNSelectLaunch& launch) {
    // The kernel's barriers separate the phases: here each phase runs for
    // every thread of the block before the next one starts.
    auto shared = std::make_unique<device::TopNSelectShared>();
    const unsigned blocks = device::top_n_blocks(launch.count);
    for (unsigned block = 0; block < blocks; ++block) {
        for (unsigned t = 0; t < device::kTopNThreads; ++t) device::top_n_load(launch, *shared, block, t);
        for (int pass = 0; pass < 2; ++pass) {
            const bool by_outcome = pass == 0;
            for (unsigned k = 2; k <= device::kTopNTile; k *= 2) {
                for (unsigned j = k / 2; j > 0; j /= 2) {
                    for (unsigned t = 0; t < device::kTopNThreads; ++t) {
                        device::top_n_sort_step(*shared, k, j, t, by_outcome);
                    }
                }
            }
            if (by_outcome) {
                for (unsigned t = 0; t < device::kTopNThreads; ++t) device::top_n_mark_duplicates(*shared, t);
                for (unsigned t = 0; t < device::kTopNThreads; ++t) device::top_n_demote_duplicates(*shared, t);
            }
        }
        for (unsigned t = 0; t < device::kTopNThreads; ++t) device::top_n_write(launch, *shared, block, t);
    }
}

void offer_block_winners(const unsigned long long* ids, const device::Metrics* rows, const OutcomeKey* keys,
                         std::uint64_t count, unsigned keep, TopOutcomes& top) {
    const unsigned blocks = device::top_n_blocks(count);
    for (unsigned block = 0; block < blocks; ++block) {
        const unsigned winners = device::top_n_block_winners(count, keep, block);
        const std::size_t first = static_cast<std::size_t>(block) * keep;
        for (unsigned e = 0; e < winners; ++e) {
            if (ids[first + e] == device::kNoWinner) continue;
            top.offer(ResultRow{ids[first + e], to_host(rows[first + e])}, keys[first + e]);
        }
    }
}

DeviceTopN::DeviceTopN(const CudaDriver& driver, const RankOrder& order, std::size_t top_n, std::uint64_t chunk,
                       std::size_t slots, ModuleSource source)
    : driver_(&driver),
      module_([&] {
          const EmbeddedKernelBuild& build = embedded_kernel_build();
          source.origin = "the embedded top-N selection kernel";
          source.kind = KernelImageKind::fatbin;
          source.cuda_version = build.cuda_version;
          source.architectures = build.architectures;
          source.ptx_architecture = build.ptx_architecture;
          return CudaModule::load(driver, embedded_top_n_select_image(), source);
      }()),
      kernel_(module_.function(kEntry)),
      base_(top_n_select_launch(order, top_n, 0)) {
    const std::size_t outputs = static_cast<std::size_t>(device::top_n_blocks(chunk)) * base_.keep;
    const std::string purpose = "the top-N winners of a chunk (" + std::to_string(outputs) + " rows)";
    const std::string keys = "the outcome keys of a chunk (" + std::to_string(chunk) + " rows)";
    areas_.reserve(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        areas_.push_back(Area{DeviceBuffer(driver, outputs * sizeof(unsigned long long), purpose),
                              DeviceBuffer(driver, outputs * sizeof(device::Metrics), purpose),
                              DeviceBuffer(driver, outputs * sizeof(OutcomeKey), purpose),
                              DeviceBuffer(driver, chunk * sizeof(OutcomeKey), keys),
                              PinnedBuffer(driver, outputs * sizeof(unsigned long long), purpose),
                              PinnedBuffer(driver, outputs * sizeof(device::Metrics), purpose),
                              PinnedBuffer(driver, outputs * sizeof(OutcomeKey), purpose),
                              PinnedBuffer(driver, chunk * sizeof(OutcomeKey), keys),
                              DeviceBuffer(driver, sizeof(unsigned long long), "the count of invalid rows"),
                              PinnedBuffer(driver, sizeof(unsigned long long), "the count of invalid rows")});
    }
}

void DeviceTopN::enqueue(std::size_t slot, const Stream& stream, CUdeviceptr ids, CUdeviceptr rows,
                         CUdeviceptr periods, std::size_t n_periods, std::uint64_t count) {
    if (count == 0) return;
    const DriverApi& api = driver_->api();
    Area& area = areas_.at(slot);
    device::TopNSelectLaunch launch = base_;
    launch.rows = reinterpret_cast<const device::Metrics*>(static_cast<std::uintptr_t>(rows));
    launch.ids = reinterpret_cast<const unsigned long long*>(static_cast<std::uintptr_t>(ids));
    launch.periods = n_periods != 0
                         ? reinterpret_cast<const device::PeriodStatistics*>(static_cast<std::uintptr_t>(periods))
                         : nullptr;
    launch.n_periods = static_cast<int>(n_periods);
    launch.count = count;
    launch.keys = reinterpret_cast<OutcomeKey*>(static_cast<std::uintptr_t>(area.device_all_keys.get()));
    launch.out_ids = reinterpret_cast<unsigned long long*>(static_cast<std::uintptr_t>(area.device_ids.get()));
    launch.out_rows = reinterpret_cast<device::Metrics*>(static_cast<std::uintptr_t>(area.device_rows.get()));
    launch.out_keys = reinterpret_cast<OutcomeKey*>(static_cast<std::uintptr_t>(area.device_keys.get()));
    launch.invalid_rows =
        reinterpret_cast<unsigned long long*>(static_cast<std::uintptr_t>(area.device_invalid.get()));
    // The same pinned word is the zero sent before the kernel and the count
    // copied back after it: the stream orders the two copies.
    *area.invalid.as<unsigned long long>() = 0;
    driver_->check(api.cuMemcpyHtoDAsync(area.device_invalid.get(), area.invalid.data(), sizeof(unsigned long long),
                                         stream.get()),
                   "zeroing the count of invalid rows");
    const unsigned blocks = device::top_n_blocks(count);
    void* parameters[] = {&launch};
    driver_->check(api.cuLaunchKernel(kernel_, blocks, 1, 1, device::kTopNThreads, 1, 1, 0, stream.get(), parameters,
                                      nullptr),
                   std::string("launching ") + kEntry + " (" + std::to_string(blocks) + " blocks)");
    // Padding outputs are copied too (never read): one copy per array.
    const std::size_t outputs = static_cast<std::size_t>(blocks) * launch.keep;
    driver_->check(api.cuMemcpyDtoHAsync(area.ids.data(), area.device_ids.get(),
                                         outputs * sizeof(unsigned long long), stream.get()),
                   "copying the top-N winners' ids back");
    driver_->check(api.cuMemcpyDtoHAsync(area.rows.data(), area.device_rows.get(), outputs * sizeof(device::Metrics),
                                         stream.get()),
                   "copying the top-N winners' rows back");
    driver_->check(api.cuMemcpyDtoHAsync(area.keys.data(), area.device_keys.get(), outputs * sizeof(OutcomeKey),
                                         stream.get()),
                   "copying the top-N winners' outcome keys back");
    driver_->check(api.cuMemcpyDtoHAsync(area.all_keys.data(), area.device_all_keys.get(), count * sizeof(OutcomeKey),
                                         stream.get()),
                   "copying the outcome keys of a chunk back");
    driver_->check(api.cuMemcpyDtoHAsync(area.invalid.data(), area.device_invalid.get(), sizeof(unsigned long long),
                                         stream.get()),
                   "copying the count of invalid rows back");
}

void DeviceTopN::offer(std::size_t slot, std::uint64_t count, TopOutcomes& top, std::uint64_t& invalid_rows) const {
    const Area& area = areas_.at(slot);
    if (count != 0) invalid_rows += *area.invalid.as<unsigned long long>();
    offer_block_winners(area.ids.as<unsigned long long>(), area.rows.as<device::Metrics>(), area.keys.as<OutcomeKey>(),
                        count, base_.keep, top);
}

std::span<const OutcomeKey> DeviceTopN::keys(std::size_t slot, std::uint64_t count) const {
    return {areas_.at(slot).all_keys.as<OutcomeKey>(), static_cast<std::size_t>(count)};
}

std::optional<DeviceTopN> make_device_top_n(const CudaDriver& driver, const RankOrder& order, std::size_t top_n,
                                            bool keep_all_rows, std::uint64_t chunk, std::size_t slots,
                                            const ModuleSource& source) {
    if (!device_top_n_applies(top_n, keep_all_rows) || embedded_top_n_select_image().empty()) return std::nullopt;
    return std::optional<DeviceTopN>(std::in_place, driver, order, top_n, chunk, slots, source);
}

}  // namespace btforge::cuda

#include "host/cuda/cuda_backend.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "host/backends/kernel_variant.h"
#include "host/backends/launch_tables.h"
#include "host/engine/account_config.h"
#include "host/cuda/chunk_plan.h"
#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_module.h"
#include "host/cuda/cuda_resources.h"
#include "host/cuda/device_indicators.h"
#include "host/cuda/kernel_image.h"
#include "host/cuda/top_n_device.h"
#include "host/engine/row_outcome.h"
#include "host/engine/top_outcomes.h"
#include "host/strategies/strategy_binding.h"

namespace btforge::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// Note [Patching device pointers]
// LaunchTables::launch gives a SweepLaunch pointing at host arrays; the
// device launch is that one with every pointer replaced by its device copy
// (patch_launch). If the generated layout gains a pointer, this size changes
// and the assert below stops the build until patch_launch handles it.
static_assert(sizeof(device::SweepLaunch) == 336,
              "device::SweepLaunch changed: update patch_launch and the resident uploads");

// Offsets of the resident arrays in one device allocation, each aligned for
// coalesced access.
class ArenaLayout {
public:
    std::size_t add(std::size_t bytes) {
        std::size_t offset = size_;
        size_ = (size_ + bytes + kAlignment - 1) / kAlignment * kAlignment;
        return offset;
    }
    std::size_t size() const { return size_; }

private:
    static constexpr std::size_t kAlignment = 256;
    std::size_t size_ = 0;
};

// Scratch of one batch of indicator jobs (Note [Indicator jobs]).
constexpr std::size_t kIndicatorScratchBytes = std::size_t{256} << 20;

// One host array to copy to the device once (host null: filled on the device).
struct Upload {
    const void* host;
    std::size_t bytes;
    std::size_t offset = 0;
};

template <typename T>
T* device_pointer(CUdeviceptr base, std::size_t offset) {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(base + offset));
}

// Two chunks in flight per device (Note [CUDA sweep]). A third, measured on
// 2 x H200 with chunks of about a wave, let each device hold three chunks
// when the shared counter ran out, and one device finished up to 0.6 s
// after the other (docs/PERFORMANCE.md, "Issue 5, fourth session").
constexpr std::size_t kSlots = 2;

// Note [Period statistics kept as they arrive]: a chunk's period statistics
// come back through a pinned staging buffer of at most this many bytes, in
// pieces, when its slot is finished (a chunk of 2^18 combinations has 470 MB
// of them at 16 periods, and pinning that much per slot was most of what
// the buffers' setup still took: docs/PERFORMANCE.md, issue 30).
constexpr std::size_t kPeriodStagingBytes = std::size_t{32} << 20;

// One of the two chunk slots (Note [CUDA sweep]).
struct Slot {
    // `returned_rows`: rows copied back per chunk (none when the device
    // selects the top N, Note [Top N on the device]).
    // `n_periods`: the period statistics per combination, always copied
    // back (Note [Period statistics]).
    Slot(const CudaDriver& driver, std::uint64_t chunk, std::uint64_t returned_rows, std::size_t n_periods)
        : ids(driver, chunk * sizeof(unsigned long long), "combination ids"),
          rows(driver, returned_rows * sizeof(device::Metrics), "result rows"),
          periods(driver,
                  std::min<std::size_t>(chunk * n_periods, kPeriodStagingBytes / sizeof(device::PeriodStatistics)) *
                      sizeof(device::PeriodStatistics),
                  "period statistics"),
          start(driver),
          stop(driver),
          stream(driver) {}
    // Members are destroyed in reverse: the stream first, which waits for
    // the copies into and out of the pinned buffers before they are freed.
    PinnedBuffer ids;
    PinnedBuffer rows;
    PinnedBuffer periods;
    Event start;
    Event stop;
    Stream stream;
    CUdeviceptr device_ids = 0;
    CUdeviceptr device_rows = 0;
    CUdeviceptr device_periods = 0;
    CUdeviceptr device_marks = 0;  // Note [Equity marks]
    std::uint64_t begin = 0;  // first ordinal of the chunk in flight
    std::uint64_t count = 0;
    std::size_t index = 0;  // in the sweep's slots
    bool busy = false;
};

std::string chunk_name(const Slot& slot) {
    return "combinations " + std::to_string(slot.begin) + ".." + std::to_string(slot.begin + slot.count - 1);
}


// ---- Planning: the kernel and the device -------------------------------

// The image a sweep loads and where it came from (the embedded fatbin,
// --kernels FILE or the NVRTC build), and its entry point.
struct ChosenKernel {
    std::optional<KernelFile> file;      // --kernels: owns `image`
    std::optional<JitImage> jit_image;   // --jit: owns `image`
    std::span<const unsigned char> image;
    ModuleSource source;
    std::string entry;  // Note [Two kernels per strategy]
};

// The device the run asked for, described into `stats`.
DeviceInfo open_device(const CudaDriver& driver, const CudaRunOptions& cuda, CudaSweepStats& stats) {
    int device_count = 0;
    driver.check(driver.api().cuDeviceGetCount(&device_count), "counting the CUDA devices");
    if (cuda.device < 0 || cuda.device >= device_count) {
        throw std::runtime_error("there is no CUDA device " + std::to_string(cuda.device) + ": this machine has " +
                                 std::to_string(device_count) + " (btforge devices lists them)");
    }
    const DeviceInfo info = describe_device(driver, cuda.device);
    stats.device_index = info.index;
    stats.device_name = info.name;
    stats.compute_major = info.compute_major;
    stats.compute_minor = info.compute_minor;
    stats.driver_version = driver.version();
    return info;
}

// Note [Kernel variants]: the embedded module of the variant is the
// strategy's name with the variant's suffix, as are its entry points.
ChosenKernel choose_kernel(const CudaDriver& driver, const SweepJob& job, const CudaRunOptions& cuda,
                           const KernelVariant& variant, const DeviceInfo& info, CudaSweepStats& stats) {
    const std::string& strategy = job.spec->name;
    const std::string module_name = strategy + std::string(variant.suffix);
    const EmbeddedKernelBuild& build = embedded_kernel_build();
    ChosenKernel chosen;
    ModuleSource& source = chosen.source;
    if (cuda.jit && cuda.kernel_file) throw std::invalid_argument("--jit and --kernels exclude each other");
    if (cuda.jit) {
        // NVRTC needs no context, only the device's compute capability.
        JitRequest request = *cuda.jit;
        if (request.nvrtc == nullptr) {
            std::string why_not;
            request.nvrtc = NvrtcLibrary::open(&why_not);
            if (request.nvrtc == nullptr) throw std::runtime_error(why_not);
        }
        const std::vector<FixedParameter> fixed = fixed_parameters(*job.spec, *job.space);
        const bool funding_free = job.market->funding_free();  // a scan of the market: once
        JitBuild built = build_strategy_kernel(request, strategy, info.compute_major, info.compute_minor, fixed,
                                               variant, funding_free);
        stats.jit = true;
        stats.jit_cache_hit = built.cache_hit;
        stats.jit_compile_seconds = built.compile_seconds;
        stats.jit_cache_file = built.cache_file.string();
        stats.nvrtc_version = request.nvrtc->version();
        stats.jit_fixed_parameters = fixed.size();
        stats.kernel_source = describe_jit_build(built, stats.nvrtc_version) + ", " + std::to_string(fixed.size()) +
                              " parameter(s) and the market's funding (" +
                              (funding_free ? "none" : "settled") + ") folded";
        source.origin = "the NVRTC build of strategy '" + strategy + "'" +
                        (built.cache_file.empty() ? std::string() : " (" + built.cache_file.string() + ")");
        source.kind = built.image.kind;
        source.cuda_version = stats.nvrtc_version;
        const std::string arch = std::to_string(info.compute_major) + std::to_string(info.compute_minor);
        if (source.kind == KernelImageKind::cubin) {
            source.architectures = "sm_" + arch;
        } else {
            source.ptx_architecture = "compute_" + arch;
        }
        chosen.jit_image = std::move(built.image);
        chosen.image = chosen.jit_image->bytes;
    } else if (cuda.kernel_file) {
        chosen.file = load_kernel_file(*cuda.kernel_file);
        chosen.image = chosen.file->image();
        source.origin = chosen.file->path;
        source.kind = chosen.file->kind;
        stats.kernel_source = chosen.file->path + " (" + std::string(kernel_image_kind_name(chosen.file->kind)) + ")";
    } else {
        std::optional<std::span<const unsigned char>> embedded = embedded_kernel_image(module_name);
        if (!embedded) throw std::runtime_error(missing_kernel_reason(module_name));
        chosen.image = *embedded;
        source.origin = "the embedded kernels of strategy '" + strategy + "', variant " + std::string(variant.name);
        source.kind = KernelImageKind::fatbin;
        source.cuda_version = build.cuda_version;
        source.architectures = build.architectures;
        source.ptx_architecture = build.ptx_architecture;
        stats.kernel_source = "embedded fatbin (nvcc " + std::string(build.cuda_version) + ")";
    }
    source.driver_version = driver.version();
    source.compute_major = info.compute_major;
    source.compute_minor = info.compute_minor;
    chosen.entry = "btforge_" + strategy + "_sweep" + (keeps_period_outputs(job.account) ? "_periods" : "") +
                   sweep_kernels_suffix(sweep_kernels_of(*job.binding, job.market->view())) +
                   std::string(variant.suffix);
    return chosen;
}

// ---- Resident buffers: the market, the series, the decode tables --------

// Where each resident array goes in the one allocation, planned before it
// is made (its size enters the chunk plan).
struct ResidentPlan {
    ArenaLayout layout;
    std::vector<Upload> uploads;
    // Indices into `uploads`.
    std::size_t timestamp = 0, open = 0, high = 0, low = 0, close = 0, volume = 0, funding_rate = 0,
                funding_events = 0, tradable = 0, margin = 0, qty_step = 0, min_qty = 0, price_tick = 0, fine_path = 0,
                fine_open = 0, fine_high = 0, fine_low = 0, mark_open = 0, mark_high = 0, mark_low = 0, radix = 0,
                stride = 0, value_offset = 0, values = 0, series = 0, series_offset = 0, series_table = 0;
    // Note [Series on the device]: set when the series are computed there.
    std::optional<IndicatorJobs> indicator_jobs;
    std::size_t indicator_work_bytes = 0;
};

ResidentPlan plan_resident(const SweepJob& job, const LaunchTables& tables) {
    ResidentPlan r;
    auto resident = [&r](const void* host, std::size_t bytes) {
        r.uploads.push_back(Upload{host, bytes, r.layout.add(bytes)});
        return r.uploads.size() - 1;
    };
    const device::MarketView& market = tables.market;
    const std::size_t bars = static_cast<std::size_t>(std::max(market.n_bars, 0));
    const std::size_t cells = static_cast<std::size_t>(std::max(market.n_symbols, 0)) * bars;
    r.timestamp = resident(market.timestamp_ms, bars * sizeof(long long));
    r.open = resident(market.open, cells * sizeof(double));
    r.high = resident(market.high, cells * sizeof(double));
    r.low = resident(market.low, cells * sizeof(double));
    r.close = resident(market.close, cells * sizeof(double));
    r.volume = resident(market.volume, cells * sizeof(double));
    r.funding_rate = resident(market.funding_rate, cells * sizeof(double));
    r.funding_events = resident(market.funding_events, cells * sizeof(int));
    r.tradable = resident(market.tradable, cells * sizeof(unsigned char));
    const std::size_t symbols = static_cast<std::size_t>(std::max(market.n_symbols, 0));
    r.margin = resident(market.margin, symbols * sizeof(device::MarginSchedule));
    r.qty_step = resident(market.qty_step, symbols * sizeof(double));
    r.min_qty = resident(market.min_qty, symbols * sizeof(double));
    r.price_tick = resident(market.price_tick, symbols * sizeof(double));
    // Note [Finer bars]: uploaded only where the run has them (empty uploads are skipped).
    const std::size_t finer = market.fine_per_bar > 0 ? cells * static_cast<std::size_t>(market.fine_per_bar) : 0;
    r.fine_path = resident(market.fine_path, market.fine_per_bar > 0 ? cells : 0);
    r.fine_open = resident(market.fine_open, finer * sizeof(double));
    r.fine_high = resident(market.fine_high, finer * sizeof(double));
    r.fine_low = resident(market.fine_low, finer * sizeof(double));
    // Note [Mark price]: uploaded only where the market has one.
    const std::size_t marks = market.mark_open != nullptr ? cells * sizeof(double) : 0;
    r.mark_open = resident(market.mark_open, marks);
    r.mark_high = resident(market.mark_high, marks);
    r.mark_low = resident(market.mark_low, marks);
    r.radix = resident(tables.radix.data(), tables.radix.size() * sizeof(unsigned long long));
    r.stride = resident(tables.stride.data(), tables.stride.size() * sizeof(unsigned long long));
    r.value_offset = resident(tables.value_offset.data(), tables.value_offset.size() * sizeof(int));
    r.values = resident(tables.values.data(), tables.values.size() * sizeof(double));
    // Note [Series on the device]; one extra slot per BREADTH series holds
    // its per-symbol EMA rows.
    if (!job.series->computed()) r.indicator_jobs = plan_indicator_jobs(*job.series, *job.market);
    const std::size_t series_bytes = r.indicator_jobs ? r.indicator_jobs->series_slots *
                                                            r.indicator_jobs->series_length * sizeof(double)
                                                      : job.series->bytes();
    r.series = resident(tables.series, series_bytes);
    r.series_offset = resident(tables.series_offset.data(), tables.series_offset.size() * sizeof(long long));
    r.series_table = resident(tables.series_table.data(), tables.series_table.size() * sizeof(int));
    r.indicator_work_bytes =
        r.indicator_jobs ? device_indicator_work_bytes(*r.indicator_jobs, kIndicatorScratchBytes) : 0;
    return r;
}

// The resident data on the device, and the launch that points at it
// (patch_launch, Note [Patching device pointers]).
struct ResidentData {
    DeviceBuffer buffer;
    device::SweepLaunch launch{};
};

ResidentData upload_resident(const CudaDriver& driver, const ResidentPlan& plan, const LaunchTables& tables,
                             CudaSweepStats& stats) {
    const DriverApi& api = driver.api();
    ResidentData r{DeviceBuffer(driver, plan.layout.size(), "the sweep's market, series and tables"), {}};
    const CUdeviceptr base = r.buffer.get();
    const auto upload_started = Clock::now();
    for (const Upload& u : plan.uploads) {
        if (u.bytes == 0 || u.host == nullptr) continue;
        driver.check(api.cuMemcpyHtoD(base + u.offset, u.host, u.bytes), "copying the sweep's inputs to the device");
    }
    // A copy from pageable memory may return before its DMA lands, and the
    // kernels run on non-blocking streams that do not wait for it.
    driver.check(api.cuCtxSynchronize(), "finishing the copies of the sweep's inputs");
    stats.upload_seconds = std::chrono::duration<double>(Clock::now() - upload_started).count();

    r.launch = tables.launch({}, nullptr, nullptr);
    auto at = [&](std::size_t upload) { return plan.uploads[upload].offset; };
    // The whole market on the device: the indicators read all of it, the
    // sweep kernel its window (Note [Market windows]).
    device::MarketView whole = tables.market;
    whole.timestamp_ms = device_pointer<const long long>(base, at(plan.timestamp));
    whole.open = device_pointer<const double>(base, at(plan.open));
    whole.high = device_pointer<const double>(base, at(plan.high));
    whole.low = device_pointer<const double>(base, at(plan.low));
    whole.close = device_pointer<const double>(base, at(plan.close));
    whole.volume = device_pointer<const double>(base, at(plan.volume));
    whole.funding_rate = device_pointer<const double>(base, at(plan.funding_rate));
    whole.funding_events = device_pointer<const int>(base, at(plan.funding_events));
    whole.tradable = device_pointer<const unsigned char>(base, at(plan.tradable));
    whole.margin = device_pointer<const device::MarginSchedule>(base, at(plan.margin));
    whole.qty_step = device_pointer<const double>(base, at(plan.qty_step));
    whole.min_qty = device_pointer<const double>(base, at(plan.min_qty));
    whole.price_tick = device_pointer<const double>(base, at(plan.price_tick));
    if (whole.fine_per_bar > 0) {
        whole.fine_path = device_pointer<const unsigned char>(base, at(plan.fine_path));
        whole.fine_open = device_pointer<const double>(base, at(plan.fine_open));
        whole.fine_high = device_pointer<const double>(base, at(plan.fine_high));
        whole.fine_low = device_pointer<const double>(base, at(plan.fine_low));
    }
    if (whole.mark_open != nullptr) {
        whole.mark_open = device_pointer<const double>(base, at(plan.mark_open));
        whole.mark_high = device_pointer<const double>(base, at(plan.mark_high));
        whole.mark_low = device_pointer<const double>(base, at(plan.mark_low));
    }
    r.launch.market = window_view(whole, tables.window);
    r.launch.radix = device_pointer<const unsigned long long>(base, at(plan.radix));
    r.launch.stride = device_pointer<const unsigned long long>(base, at(plan.stride));
    r.launch.value_offset = device_pointer<const int>(base, at(plan.value_offset));
    r.launch.values = device_pointer<const double>(base, at(plan.values));
    r.launch.series = device_pointer<const double>(base, at(plan.series));
    r.launch.series_offset = device_pointer<const long long>(base, at(plan.series_offset));
    r.launch.series_table = device_pointer<const int>(base, at(plan.series_table));
    if (plan.indicator_jobs) {
        DeviceBuffer work(driver, plan.indicator_work_bytes, "the indicator kernels' working memory");
        DeviceIndicatorRun run = compute_series_on_device(driver, *plan.indicator_jobs, whole, base + at(plan.series),
                                                          work.get(), kIndicatorScratchBytes);
        stats.indicators_on_device = true;
        stats.indicator_seconds = run.seconds;
        stats.indicator_jobs = run.jobs;
    }
    return r;
}

// ---- The chunks' buffers -------------------------------------------------

// The two slots, their device memory and the device top N (Note [Top N on
// the device]), made in place (a DeviceTopN does not move). Members are
// destroyed in reverse: the slots' streams are drained before the top N's
// buffers and the slots' device memory are freed.
struct ChunkSlots {
    // Each slot's ids, rows, period statistics and equity marks, one after the other.
    struct Layout {
        std::array<std::size_t, kSlots> ids{};
        std::array<std::size_t, kSlots> rows{};
        std::array<std::size_t, kSlots> periods{};
        std::array<std::size_t, kSlots> marks{};
        std::size_t bytes = 0;
    };
    static Layout layout_of(std::uint64_t chunk, std::size_t n_periods, std::size_t n_marks) {
        ArenaLayout arena;
        Layout l;
        for (std::size_t s = 0; s < kSlots; ++s) {
            l.ids[s] = arena.add(chunk * sizeof(unsigned long long));
            l.rows[s] = arena.add(chunk * sizeof(device::Metrics));
            l.periods[s] = arena.add(chunk * n_periods * sizeof(device::PeriodStatistics));
            l.marks[s] = arena.add(chunk * n_marks * sizeof(double));
        }
        l.bytes = arena.size();
        return l;
    }

    ChunkSlots(const CudaDriver& driver, const SweepOptions& options, std::uint64_t chunk, std::size_t n_periods,
               std::size_t n_marks, bool every_row_back, const ModuleSource& source)
        : layout(layout_of(chunk, n_periods, n_marks)),
          buffer(driver, layout.bytes,
                 std::to_string(kSlots) + " chunks of " + std::to_string(chunk) + " combinations (ids and rows)"),
          // Note [Top N on the device]: when it applies, each chunk returns
          // only its blocks' winners.
          device_top(make_device_top_n(driver, options.rank_order(), options.top_n, every_row_back, chunk, kSlots,
                                       source)) {
        for (std::size_t s = 0; s < kSlots; ++s) {
            slots[s] = std::make_unique<Slot>(driver, chunk, device_top ? 0 : chunk, n_periods);
            slots[s]->device_ids = buffer.get() + layout.ids[s];
            slots[s]->device_rows = buffer.get() + layout.rows[s];
            slots[s]->device_periods = buffer.get() + layout.periods[s];
            slots[s]->device_marks = buffer.get() + layout.marks[s];
            slots[s]->index = s;
        }
    }
    ChunkSlots(const ChunkSlots&) = delete;
    ChunkSlots& operator=(const ChunkSlots&) = delete;

    Layout layout;
    DeviceBuffer buffer;
    std::optional<DeviceTopN> device_top;
    std::array<std::unique_ptr<Slot>, kSlots> slots;
};

// ---- Collection: a finished chunk's rows and period statistics ----------

// What the launches need to know to collect a chunk, and what they gather.
class ChunkCollector {
public:
    // `keys`: where the outcome key of the run's position p goes, at
    // keys[order(p)] (p itself without an order).
    ChunkCollector(const CudaDriver& driver, const SweepOptions& options, const CudaRunOptions& cuda,
                   const std::string& entry, std::size_t n_periods, std::size_t n_marks,
                   std::optional<DeviceTopN>& device_top, SweepOutcome& outcome, OutcomeKey* keys,
                   const std::optional<BalancedOrder>& order, CudaSweepStats& stats, const Event& origin,
                   double origin_seconds)
        : driver_(driver), options_(options), cuda_(cuda), entry_(entry), n_periods_(n_periods), n_marks_(n_marks),
          device_top_(device_top), outcome_(outcome), keys_(keys), order_(order), stats_(stats), origin_(origin),
          origin_seconds_(origin_seconds), top_(options.rank_order(), options.top_n) {}

    // Waits for the slot's chunk (when one is in flight) and takes in its
    // rows and period statistics; the slot is then free.
    void finish(Slot& slot) {
        if (!slot.busy) return;
        slot.busy = false;
        slot.stream.synchronize("running " + entry_ + " on " + chunk_name(slot));
        kernel_intervals_.emplace_back(elapsed_milliseconds(driver_, origin_, slot.start),
                                       elapsed_milliseconds(driver_, origin_, slot.stop));
        ChunkTiming timing;
        timing.device = cuda_.device;
        timing.first = slot.begin;
        timing.count = slot.count;
        timing.start_seconds = origin_seconds_ + kernel_intervals_.back().first / 1000.0;
        timing.stop_seconds = origin_seconds_ + kernel_intervals_.back().second / 1000.0;
        stats_.chunk_timings.push_back(timing);
        // One device runs every position in ordinal order (several devices
        // refuse periods), so position is the ordinal.
        if (outcome_.periods.size() != slot.begin * n_periods_) {
            throw std::logic_error("period statistics of " + chunk_name(slot) + " arrived out of order");
        }
        const DriverApi& api = driver_.api();
        const std::size_t staged = slot.periods.size() / sizeof(device::PeriodStatistics);
        for (std::size_t done = 0, total = slot.count * n_periods_; done < total;) {
            const std::size_t piece = std::min(staged, total - done);
            driver_.check(api.cuMemcpyDtoHAsync(slot.periods.data(),
                                                slot.device_periods + done * sizeof(device::PeriodStatistics),
                                                piece * sizeof(device::PeriodStatistics), slot.stream.get()),
                          "copying the period statistics of " + chunk_name(slot) + " back");
            slot.stream.synchronize("copying the period statistics of " + chunk_name(slot) + " back");
            append_to_host(slot.periods.as<device::PeriodStatistics>(), piece, outcome_.periods);
            done += piece;
        }
        // Note [Equity marks]: doubles on both sides, copied straight into
        // the outcome (one device: chunks arrive in ordinal order).
        if (n_marks_ != 0) {
            const std::size_t at = outcome_.equity_marks.size();
            if (at != slot.begin * n_marks_) throw std::logic_error("equity marks of " + chunk_name(slot) + " arrived out of order");
            outcome_.equity_marks.resize(at + slot.count * n_marks_);
            driver_.check(api.cuMemcpyDtoHAsync(outcome_.equity_marks.data() + at, slot.device_marks,
                                                slot.count * n_marks_ * sizeof(double), slot.stream.get()),
                          "copying the equity marks of " + chunk_name(slot) + " back");
            slot.stream.synchronize("copying the equity marks of " + chunk_name(slot) + " back");
        }
        if (device_top_) {
            device_top_->offer(slot.index, slot.count, top_, outcome_.invalid_rows);
            const std::span<const OutcomeKey> keys = device_top_->keys(slot.index, slot.count);
            for (std::uint64_t i = 0; i < slot.count; ++i) keys_[ordinal_at(slot.begin + i)] = keys[i];
        } else {
            // Every row came back: the host hashes the outcomes (the same
            // outcome_of_row as the selection kernel).
            const unsigned long long* ids = slot.ids.as<unsigned long long>();
            const device::Metrics* rows = slot.rows.as<device::Metrics>();
            for (std::uint64_t i = 0; i < slot.count; ++i) {
                ResultRow row{ids[i], to_host(rows[i])};
                const OutcomeKey key = outcome_of(
                    row.metrics, std::span<const PeriodStatistics>(
                                     outcome_.periods.data() + (slot.begin + i) * n_periods_, n_periods_));
                keys_[ordinal_at(slot.begin + i)] = key;
                top_.offer(row, key);
                if (!metrics_are_finite(row.metrics)) ++outcome_.invalid_rows;
                if (options_.keep_all_rows) outcome_.all[slot.begin + i] = row;
                if (options_.row_sink) options_.row_sink(slot.begin + i, std::span<const ResultRow>(&row, 1));
            }
        }
        if (options_.completed != nullptr) options_.completed->fetch_add(slot.count);
    }

    // Note [Kernel-only time]
    // Kernels of different slots may run at the same time, so their durations
    // do not add up: the kernel-only time is the length of the union of the
    // [start, stop] intervals, all measured from one origin event.
    double kernel_seconds() {
        std::sort(kernel_intervals_.begin(), kernel_intervals_.end());
        double kernel_milliseconds = 0.0;
        double covered_until = 0.0;
        for (auto [begin, end] : kernel_intervals_) {
            begin = std::max(begin, covered_until);
            if (end > begin) kernel_milliseconds += end - begin;
            covered_until = std::max(covered_until, end);
        }
        return kernel_milliseconds / 1000.0;
    }

    std::vector<ResultRow> sorted_top() const { return top_.sorted_rows(); }

private:
    std::uint64_t ordinal_at(std::uint64_t position) const { return order_ ? (*order_)(position) : position; }

    const CudaDriver& driver_;
    const SweepOptions& options_;
    const CudaRunOptions& cuda_;
    const std::string& entry_;
    const std::size_t n_periods_;
    const std::size_t n_marks_;
    std::optional<DeviceTopN>& device_top_;
    SweepOutcome& outcome_;
    OutcomeKey* keys_;
    const std::optional<BalancedOrder>& order_;
    CudaSweepStats& stats_;
    const Event& origin_;
    const double origin_seconds_;
    TopOutcomes top_;
    std::vector<std::pair<double, double>> kernel_intervals_;
};

}  // namespace

SweepOutcome run_cuda_sweep(const CudaDriver& driver, const SweepJob& job, const SweepOptions& options,
                            const CudaRunOptions& cuda, CudaSweepStats* stats_out) {
    const auto started = Clock::now();
    if (job.space == nullptr || job.spec == nullptr || options.rank_metric == nullptr) {
        throw std::invalid_argument("a CUDA sweep needs a combination space, a spec and a rank metric");
    }
    if (job.bar_legs != 0) {  // Note [A bar as three legs]: the kernels fold them away
        throw std::invalid_argument("a CUDA sweep runs the market's own bars; the legs of a bar run on the CPU");
    }
    const DriverApi& api = driver.api();
    CudaSweepStats stats;

    // Planning: the variant, the device, the kernel.
    const KernelVariant& variant = choose_kernel_variant(job.market->n_symbols(), cuda.kernel_variant);
    stats.kernel_variant = describe_kernel_variant(variant);
    const DeviceInfo info = open_device(driver, cuda, stats);
    const ChosenKernel chosen = choose_kernel(driver, job, cuda, variant, info, stats);
    CUdevice device = 0;
    driver.check(api.cuDeviceGet(&device, cuda.device), "opening device " + std::to_string(cuda.device));
    // Note: destruction runs in reverse, so everything below is released
    // before the context.
    PrimaryContext context(driver, device);
    CudaModule module = CudaModule::load(driver, chosen.image, chosen.source);
    stats.jit_log = module.info_log();
    const std::string& entry = chosen.entry;
    CUfunction kernel = module.function(entry);
    stats.context_seconds = std::chrono::duration<double>(Clock::now() - started).count();

    const LaunchTables tables = build_launch_tables(job);
    SweepOutcome outcome;
    outcome.threads = 1;
    outcome.kernel_variant = stats.kernel_variant;
    // Note [Shards]: positions count from options.first_ordinal, as on the
    // host engines (the rows' `all`, periods and sink indices too).
    const std::uint64_t first_ordinal = options.first_ordinal;
    outcome.combinations = sweep_combinations(job, options);
    if (outcome.combinations == 0) {
        // An empty shard (more shards than combinations): nothing to launch.
        outcome.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        if (stats_out != nullptr) *stats_out = std::move(stats);
        return outcome;
    }

    // Resident buffers, planned first: their size enters the chunk plan.
    const ResidentPlan resident = plan_resident(job, tables);
    const std::size_t resident_bytes = resident.layout.size();
    const EmbeddedKernelBuild& build = embedded_kernel_build();
    // Note [Top N on the device]: each slot's winners area grows with the
    // chunk, so the plans below count it beside the ids and rows.
    // A row sink (--all-rows) needs every row back, as keep_all_rows does.
    const bool every_row_back = options.keep_all_rows || static_cast<bool>(options.row_sink);
    const TopNAreaBytes top_n_area =
        device_top_n_applies(options.top_n, every_row_back) && !embedded_top_n_select_image().empty()
            ? device_top_n_area_bytes(top_n_select_launch(options.rank_order(), options.top_n, 0).keep)
            : TopNAreaBytes{};
    // Note [Period statistics]: account.n_periods more per combination, when asked.
    const std::size_t n_periods = static_cast<std::size_t>(std::max(job.account.n_periods, 0));
    // Note [Equity marks]: account.equity_marks doubles more, when asked.
    const std::size_t n_marks = static_cast<std::size_t>(std::max(job.account.equity_marks, 0));
    const std::uint64_t bytes_per_combination = sizeof(unsigned long long) + sizeof(device::Metrics) +
                                                n_periods * sizeof(device::PeriodStatistics) +
                                                n_marks * sizeof(double) + top_n_area.per_combination;

    // Two allocations: the resident data first, then (Note [Chunk planning])
    // the two slots' ids and rows, planned from the memory left once the
    // series are computed, so the indicators' working memory does not shrink
    // the chunks.
    {
        // Fails early, with what is needed and what is free, when even one
        // block of combinations cannot fit beside the resident data and the
        // indicators' working memory.
        std::size_t free_now = 0;
        std::size_t total_now = 0;
        driver.check(api.cuMemGetInfo(&free_now, &total_now),
                     "reading the free memory of device " + std::to_string(cuda.device));
        ChunkPlanInput fits;
        fits.free_bytes = free_now;
        fits.resident_bytes = resident_bytes + resident.indicator_work_bytes + kSlots * top_n_area.per_slot;
        fits.bytes_per_combination = bytes_per_combination;
        fits.buffers = kSlots;
        fits.safety_margin_bytes = cuda.safety_margin_bytes;
        fits.max_chunk = std::max<std::uint64_t>(cuda.max_chunk, build.block_size);
        fits.combinations = outcome.combinations;
        fits.granularity = build.block_size;
        plan_chunks(fits);
    }
    const ResidentData on_device = upload_resident(driver, resident, tables, stats);
    const device::SweepLaunch& launch = on_device.launch;

    // The chunks: planned from the memory left, then allocated.
    const auto allocation_started = Clock::now();
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    driver.check(api.cuMemGetInfo(&free_bytes, &total_bytes), "reading the free memory of device " + std::to_string(cuda.device));
    const unsigned block = build.block_size;
    ChunkPlanInput plan_input;
    plan_input.free_bytes = free_bytes;
    plan_input.resident_bytes = kSlots * top_n_area.per_slot;  // the rest is allocated: free_bytes no longer counts it
    plan_input.bytes_per_combination = bytes_per_combination;
    plan_input.buffers = kSlots;
    plan_input.safety_margin_bytes = cuda.safety_margin_bytes;
    plan_input.max_chunk = std::max<std::uint64_t>(cuda.max_chunk, block);
    int blocks_per_sm = 0;
    driver.check(api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, static_cast<int>(block), 0),
                 "reading the occupancy of " + entry);
    const std::uint64_t wave = static_cast<std::uint64_t>(std::max(blocks_per_sm, 1)) *
                               static_cast<std::uint64_t>(std::max(info.multiprocessors, 1)) * block;
    stats.wave = wave;
    if (cuda.sharing_devices > 1) {
        // At least a wave even above max_chunk: a smaller chunk idles SMs.
        plan_input.max_chunk = std::min(several_device_chunk(outcome.combinations, cuda.sharing_devices, wave, block),
                                        std::max<std::uint64_t>(plan_input.max_chunk, wave));
    }
    plan_input.combinations = outcome.combinations;
    plan_input.granularity = block;
    const ChunkPlan plan = plan_chunks(plan_input);
    // Note [Chunks of equal cost]: several devices run the ordinals in an order
    // in which every chunk costs about the same.
    std::optional<BalancedOrder> order;
    if (cuda.sharing_devices > 1) {
        order.emplace(outcome.combinations,
                      balanced_stripe(outcome.combinations, job.space->series_block_size(), block));
        stats.balanced_stripe = order->stripe();
    }
    stats.chunk_size = plan.chunk;
    stats.device_bytes = resident_bytes + plan.device_bytes;
    ChunkSlots chunk_slots(driver, options, plan.chunk, n_periods, n_marks, every_row_back, chosen.source);
    std::array<std::unique_ptr<Slot>, kSlots>& slots = chunk_slots.slots;

    if (options.keep_all_rows) outcome.all.resize(outcome.combinations);
    // Note [Period statistics kept as they arrive]
    // A million combinations' period statistics are about 2 GB. Sized here
    // (value-initialized) they were zeroed page by page before the first
    // kernel, on the sweep's critical path; reserved, each chunk's are
    // appended as it finishes (chunks finish in ordinal order on one
    // device), while the other slot's kernel runs. They come back from the
    // device then too, through the slot's pinned staging buffer in pieces
    // (kPeriodStagingBytes), not through a pinned copy of the whole chunk.
    outcome.periods.reserve(outcome.combinations * n_periods);
    outcome.equity_marks.reserve(outcome.combinations * n_marks);
    stats.allocation_seconds = std::chrono::duration<double>(Clock::now() - allocation_started).count();
    stats.setup_seconds = std::chrono::duration<double>(Clock::now() - started).count();
    Event origin(driver);
    origin.record(slots[0]->stream);
    slots[0]->stream.synchronize("recording the timing origin");
    // The origin on the host clock, to place the chunks on the sweep's time line.
    const double origin_seconds = std::chrono::duration<double>(Clock::now() - started).count();
    // Note [Distinct outcomes]: every combination's key, at its position.
    OutcomeKey* keys = cuda.outcome_keys;
    if (keys == nullptr) {
        outcome.outcomes.resize(outcome.combinations);
        keys = outcome.outcomes.data();
    }
    ChunkCollector collector(driver, options, cuda, entry, n_periods, n_marks, chunk_slots.device_top, outcome, keys,
                             order, stats, origin, origin_seconds);

    // The launches: a chunk into each free slot, the older one collected first.
    std::atomic<std::uint64_t> own_next{0};
    std::atomic<std::uint64_t>& next = cuda.shared_next != nullptr ? *cuda.shared_next : own_next;
    std::uint64_t launched = 0;
    bool cancelled = false;
    while (true) {
        if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
            cancelled = true;
            break;
        }
        Slot& slot = *slots[launched % kSlots];
        collector.finish(slot);  // chunk launched - kSlots: its buffers are now free
        // Take the next chunk only now that a slot is free: a device that
        // started first must not hoard chunks another could run (Note
        // [Several GPUs]).
        const std::uint64_t begin = next.fetch_add(plan.chunk);
        if (begin >= outcome.combinations) break;
        slot.begin = begin;
        slot.count = std::min<std::uint64_t>(plan.chunk, outcome.combinations - begin);
        unsigned long long* ids = slot.ids.as<unsigned long long>();
        for (std::uint64_t i = 0; i < slot.count; ++i) {
            const std::uint64_t position = slot.begin + i;
            ids[i] = job.space->combination_id(first_ordinal + (order ? (*order)(position) : position));
        }
        driver.check(api.cuMemcpyHtoDAsync(slot.device_ids, ids, slot.count * sizeof(unsigned long long),
                                           slot.stream.get()),
                     "copying the ids of " + chunk_name(slot) + " to the device");
        device::SweepLaunch chunk_launch = launch;
        chunk_launch.combination_ids = device_pointer<const unsigned long long>(slot.device_ids, 0);
        chunk_launch.count = slot.count;
        chunk_launch.rows = device_pointer<device::Metrics>(slot.device_rows, 0);
        chunk_launch.periods =
            n_periods != 0 ? device_pointer<device::PeriodStatistics>(slot.device_periods, 0) : nullptr;
        chunk_launch.marks = n_marks != 0 ? device_pointer<double>(slot.device_marks, 0) : nullptr;
        void* parameters[] = {&chunk_launch};
        const unsigned grid = static_cast<unsigned>((slot.count + block - 1) / block);
        slot.start.record(slot.stream);
        driver.check(api.cuLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, slot.stream.get(), parameters, nullptr),
                     "launching " + entry + " (" + std::to_string(grid) + " blocks of " + std::to_string(block) +
                         " threads) on " + chunk_name(slot));
        slot.stop.record(slot.stream);
        if (chunk_slots.device_top) {
            chunk_slots.device_top->enqueue(slot.index, slot.stream, slot.device_ids, slot.device_rows,
                                            slot.device_periods, n_periods, slot.count);
        } else {
            driver.check(api.cuMemcpyDtoHAsync(slot.rows.data(), slot.device_rows,
                                               slot.count * sizeof(device::Metrics), slot.stream.get()),
                         "copying the rows of " + chunk_name(slot) + " back");
        }
        slot.busy = true;
        ++launched;
    }
    // The oldest chunk first, so rows are ranked in launch order.
    for (std::size_t k = 0; k < kSlots; ++k) collector.finish(*slots[(launched + k) % kSlots]);

    stats.chunks = launched;
    stats.kernel_seconds = collector.kernel_seconds();
    outcome.cancelled = cancelled;
    if (cancelled) {
        outcome.all.clear();
        outcome.periods.clear();
        outcome.equity_marks.clear();
        outcome.outcomes.clear();
    } else {
        outcome.top = collector.sorted_top();
    }
    outcome.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (stats_out != nullptr) *stats_out = std::move(stats);
    return outcome;
}

SweepOutcome run_cuda_sweep(const SweepJob& job, const SweepOptions& options, const CudaRunOptions& cuda,
                            CudaSweepStats* stats) {
    std::string why_not;
    std::unique_ptr<CudaDriver> driver = CudaDriver::open(&why_not);
    if (driver == nullptr) throw CudaUnavailable(why_not);
    return run_cuda_sweep(*driver, job, options, cuda, stats);
}

SweepOutcome run_multi_gpu_sweep(const CudaDriver& driver, const SweepJob& job, const SweepOptions& options,
                                 const CudaRunOptions& cuda, const std::vector<int>& devices,
                                 std::vector<CudaSweepStats>* stats) {
    if (devices.size() == 1) {
        CudaRunOptions one = cuda;
        one.device = devices.front();
        CudaSweepStats single;
        SweepOutcome outcome = run_cuda_sweep(driver, job, options, one, &single);
        if (stats != nullptr) stats->assign(1, single);
        return outcome;
    }
    if (options.keep_all_rows) {
        throw std::runtime_error("keeping every row is done on one GPU; choose one device (--devices N)");
    }
    if (keeps_period_outputs(job.account)) {
        throw std::runtime_error("period statistics and equity marks are kept on one GPU; choose one device (--devices N)");
    }
    const auto started = Clock::now();
    std::atomic<std::uint64_t> shared_next{0};
    SweepOutcome merged;
    merged.combinations = sweep_combinations(job, options);
    merged.outcomes.resize(merged.combinations);  // Note [Distinct outcomes]: every device writes its chunks'
    std::vector<SweepOutcome> outcomes(devices.size());
    std::vector<CudaSweepStats> device_stats(devices.size());
    std::vector<std::exception_ptr> failures(devices.size());
    std::vector<double> results_in(devices.size(), 0.0);  // seconds from `started`
    std::vector<std::thread> threads;
    for (std::size_t d = 0; d < devices.size(); ++d) {
        threads.emplace_back([&, d] {
            try {
                const double began = std::chrono::duration<double>(Clock::now() - started).count();
                CudaRunOptions mine = cuda;
                mine.device = devices[d];
                mine.shared_next = &shared_next;
                mine.sharing_devices = devices.size();  // Note [Chunks for several GPUs]
                mine.outcome_keys = merged.outcomes.data();
                outcomes[d] = run_cuda_sweep(driver, job, options, mine, &device_stats[d]);
                results_in[d] = began + outcomes[d].seconds;
                for (ChunkTiming& timing : device_stats[d].chunk_timings) {
                    timing.start_seconds += began;
                    timing.stop_seconds += began;
                }
            } catch (...) {
                failures[d] = std::current_exception();
            }
        });
    }
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& failure : failures) {
        if (failure) std::rethrow_exception(failure);
    }
    const auto merge_started = Clock::now();
    merged.threads = static_cast<int>(devices.size());
    merged.kernel_variant = outcomes.front().kernel_variant;
    TopOutcomes top(options.rank_order(), options.top_n);
    for (const SweepOutcome& o : outcomes) {
        merged.cancelled = merged.cancelled || o.cancelled;
        merged.invalid_rows += o.invalid_rows;
        for (const ResultRow& row : o.top) top.offer(row, outcome_key_of(merged, *job.space, options, row.combination_id));
    }
    if (merged.cancelled) {
        merged.outcomes.clear();
    } else {
        merged.top = top.sorted_rows();
    }
    // Note [Several GPUs]: when the last device's results were in, plus the merge.
    merged.seconds = *std::max_element(results_in.begin(), results_in.end()) +
                     std::chrono::duration<double>(Clock::now() - merge_started).count();
    if (stats != nullptr) *stats = std::move(device_stats);
    return merged;
}

}  // namespace btforge::cuda

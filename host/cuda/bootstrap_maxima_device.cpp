#include "host/cuda/bootstrap_maxima_device.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_module.h"
#include "host/cuda/cuda_resources.h"
#include "host/cuda/kernel_image.h"

namespace btforge::cuda {

namespace {

// Blocks per multiprocessor the grid aims at: a few waves, so the last
// wave's tail is short.
constexpr unsigned kBlocksPerMultiprocessor = 16;

template <class T>
T* device_pointer(const DeviceBuffer& buffer) {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(buffer.get()));
}

template <class T>
void copy_to(const CudaDriver& driver, const DeviceBuffer& buffer, std::span<const T> values, const std::string& what) {
    if (!values.empty()) {
        driver.check(driver.api().cuMemcpyHtoD(buffer.get(), values.data(), values.size_bytes()), "copying " + what);
    }
}

// One SPA's differentials and resamples on the device, and its passes.
class DeviceBootstrapScan final : public BootstrapScan {
public:
    DeviceBootstrapScan(const CudaDriver& driver, int device_index, const Differentials& d,
                        std::span<const SparseResample> resamples, unsigned tile)
        : driver_(driver), context_(driver, device_of(driver, device_index)), d_(d), info_(describe_device(driver, device_index)) {
        module_ = std::make_unique<CudaModule>(
            CudaModule::load(driver, embedded_bootstrap_maxima_image(),
                             embedded_module_source("the embedded SPA kernel", driver.version(), info_.compute_major,
                                                    info_.compute_minor)));
        kernel_ = module_->function("btforge_spa_maxima");
        variance_kernel_ = module_->function("btforge_spa_variances");
        const SpaResampleTable table = spa_resample_table(resamples);
        resamples_ = static_cast<int>(resamples.size());
        grid_ = spa_grid(resamples_, d.count, static_cast<unsigned>(info_.multiprocessors) * kBlocksPerMultiprocessor);
        const std::string of = " of " + std::to_string(d.count) + " combinations";
        values_ = std::make_unique<DeviceBuffer>(driver, d.values.size_bytes(), "the return streams" + of);
        copy_to(driver, *values_, d.values, "the return streams" + of);
        positions_ = std::make_unique<DeviceBuffer>(driver, table.positions.size() * sizeof(int), "the resamples' positions");
        copy_to(driver, *positions_, std::span<const int>(table.positions), "the resamples' positions");
        counts_ = std::make_unique<DeviceBuffer>(driver, table.counts.size() * sizeof(double), "the resamples' counts");
        copy_to(driver, *counts_, std::span<const double>(table.counts), "the resamples' counts");
        lengths_ = std::make_unique<DeviceBuffer>(driver, table.lengths.size() * sizeof(int), "the resamples' lengths");
        copy_to(driver, *lengths_, std::span<const int>(table.lengths), "the resamples' lengths");
        centers_ = std::make_unique<DeviceBuffer>(driver, static_cast<std::size_t>(device::kSpaMaxCenters) * d.count *
                                                              sizeof(double), "the recentred means" + of);
        selected_ = std::make_unique<DeviceBuffer>(driver, d.count, "the combinations selected" + of);
        partial_ = std::make_unique<DeviceBuffer>(driver, static_cast<std::size_t>(grid_.chunks) * resamples_ *
                                                              device::kSpaMaxCenters * sizeof(double),
                                                  "the maxima of every chunk");
        launch_.values = device_pointer<const double>(*values_);
        launch_.positions = device_pointer<const int>(*positions_);
        launch_.counts = device_pointer<const double>(*counts_);
        launch_.lengths = device_pointer<const int>(*lengths_);
        launch_.center_values = device_pointer<const double>(*centers_);
        launch_.selected = device_pointer<const unsigned char>(*selected_);
        launch_.maxima = device_pointer<double>(*partial_);
        launch_.combinations = d.count;
        launch_.chunk = grid_.chunk;
        launch_.observations = d.observations;
        launch_.resamples = resamples_;
        launch_.tile = tile;
    }

    std::vector<double> maxima(const BootstrapPass& pass) override {
        const int centers = static_cast<int>(pass.centers.size());
        if (centers < 1 || centers > device::kSpaMaxCenters) {
            throw std::invalid_argument("a bootstrap pass of " + std::to_string(centers) + " recenterings");
        }
        std::vector<double> packed;
        packed.reserve(static_cast<std::size_t>(centers) * d_.count);
        for (const std::vector<double>* c : pass.centers) packed.insert(packed.end(), c->begin(), c->end());
        copy_to(driver_, *centers_, std::span<const double>(packed), "the recentred means");
        std::vector<unsigned char> selected(pass.selected->begin(), pass.selected->end());
        copy_to(driver_, *selected_, std::span<const unsigned char>(selected), "the combinations selected");
        launch_.centers = centers;
        const unsigned shared = static_cast<unsigned>(static_cast<std::size_t>(d_.observations) *
                                                      device::spa_row_stride(launch_.tile) * sizeof(double));
        void* parameters[] = {&launch_};
        const Stream stream(driver_);
        driver_.check(driver_.api().cuLaunchKernel(kernel_, grid_.resample_blocks, grid_.chunks, 1, device::kSpaThreads,
                                                   1, 1, shared, stream.get(), parameters, nullptr),
                      "launching btforge_spa_maxima (" + std::to_string(grid_.resample_blocks) + " x " +
                          std::to_string(grid_.chunks) + " blocks)");
        stream.synchronize("running btforge_spa_maxima");
        std::vector<double> partial(static_cast<std::size_t>(grid_.chunks) * resamples_ * centers);
        driver_.check(driver_.api().cuMemcpyDtoH(partial.data(), partial_->get(), partial.size() * sizeof(double)),
                      "copying the SPA maxima back");
        return merge_spa_maxima(partial, resamples_, centers);
    }

    std::vector<double> variances(std::span<const double> kappa) override {
        const DeviceBuffer kappa_buffer(driver_, kappa.size_bytes(), "the variances' kappa weights");
        copy_to(driver_, kappa_buffer, kappa, "the variances' kappa weights");
        const DeviceBuffer out(driver_, d_.count * sizeof(double), "the variances of " + std::to_string(d_.count) + " streams");
        device::SpaVarianceLaunch launch{};
        launch.values = device_pointer<const double>(*values_);
        launch.kappa = device_pointer<const double>(kappa_buffer);
        launch.variances = device_pointer<double>(out);
        launch.combinations = d_.count;
        launch.observations = d_.observations;
        const auto blocks = static_cast<unsigned>((d_.count + device::kSpaVarianceThreads - 1) / device::kSpaVarianceThreads);
        const unsigned shared = static_cast<unsigned>(device::kSpaVarianceThreads *
                                                      (static_cast<unsigned>(d_.observations) | 1u) * sizeof(double));
        void* parameters[] = {&launch};
        const Stream stream(driver_);
        driver_.check(driver_.api().cuLaunchKernel(variance_kernel_, blocks, 1, 1, device::kSpaVarianceThreads, 1, 1,
                                                   shared, stream.get(), parameters, nullptr),
                      "launching btforge_spa_variances (" + std::to_string(blocks) + " blocks)");
        stream.synchronize("running btforge_spa_variances");
        std::vector<double> variances(d_.count);
        driver_.check(driver_.api().cuMemcpyDtoH(variances.data(), out.get(), variances.size() * sizeof(double)),
                      "copying the variances back");
        return variances;
    }

    std::string where() const override { return info_.name + " (cuda)"; }

private:
    static CUdevice device_of(const CudaDriver& driver, int index) {
        CUdevice device = 0;
        driver.check(driver.api().cuDeviceGet(&device, index), "opening device " + std::to_string(index));
        return device;
    }

    const CudaDriver& driver_;
    PrimaryContext context_;  // first: the buffers and the module are released while it lives
    Differentials d_;
    DeviceInfo info_;
    std::unique_ptr<CudaModule> module_;
    CUfunction kernel_ = nullptr;
    CUfunction variance_kernel_ = nullptr;
    int resamples_ = 0;
    SpaGrid grid_;
    std::unique_ptr<DeviceBuffer> values_, positions_, counts_, lengths_, centers_, selected_, partial_;
    device::SpaScanLaunch launch_{};
};

}  // namespace

SpaGrid spa_grid(int resamples, std::uint64_t combinations, unsigned target_blocks) {
    SpaGrid grid;
    grid.resample_blocks = static_cast<unsigned>((std::max(resamples, 1) + device::kSpaThreads - 1) / device::kSpaThreads);
    const std::uint64_t wanted = std::max<std::uint64_t>(1, target_blocks / grid.resample_blocks);
    const std::uint64_t chunks =
        std::min<std::uint64_t>(std::max<std::uint64_t>(combinations, 1), std::min<std::uint64_t>(wanted, 65535));
    grid.chunk = (combinations + chunks - 1) / chunks;
    grid.chunks = static_cast<unsigned>((combinations + grid.chunk - 1) / std::max<std::uint64_t>(grid.chunk, 1));
    return grid;
}

SpaResampleTable spa_resample_table(std::span<const SparseResample> resamples) {
    SpaResampleTable table;
    std::size_t longest = 0;
    for (const SparseResample& r : resamples) longest = std::max(longest, r.position.size());
    const std::size_t n = resamples.size();
    table.positions.assign(longest * n, 0);
    table.counts.assign(longest * n, 0.0);
    for (std::size_t b = 0; b < n; ++b) {
        table.lengths.push_back(static_cast<int>(resamples[b].position.size()));
        for (std::size_t i = 0; i < resamples[b].position.size(); ++i) {
            table.positions[i * n + b] = resamples[b].position[i];
            table.counts[i * n + b] = resamples[b].count[i];
        }
    }
    return table;
}

void spa_scan_on_host(const device::SpaScanLaunch& launch, const SpaGrid& grid) {
    // The kernel's barriers separate a tile's load from its scan: here the
    // whole block loads before any thread scans.
    std::vector<double> tile(static_cast<std::size_t>(launch.observations) * device::spa_row_stride(launch.tile));
    for (unsigned chunk = 0; chunk < grid.chunks; ++chunk) {
        for (unsigned block = 0; block < grid.resample_blocks; ++block) {
            std::vector<double> best(static_cast<std::size_t>(device::kSpaThreads) * device::kSpaMaxCenters,
                                     device::spa_minus_infinity());
            const unsigned long long begin = device::spa_chunk_begin(launch, chunk);
            const unsigned long long end = device::spa_chunk_end(launch, chunk);
            for (unsigned long long first = begin; first < end; first += launch.tile) {
                const unsigned long long last = std::min<unsigned long long>(first + launch.tile, end);
                for (unsigned t = 0; t < device::kSpaThreads; ++t) device::spa_load_tile(launch, tile.data(), first, last, t);
                for (unsigned t = 0; t < device::kSpaThreads; ++t) {
                    const int b = static_cast<int>(block * device::kSpaThreads + t);
                    if (b < launch.resamples) {
                        device::spa_scan_tile(launch, tile.data(), first, last, b, &best[t * device::kSpaMaxCenters]);
                    }
                }
            }
            for (unsigned t = 0; t < device::kSpaThreads; ++t) {
                const int b = static_cast<int>(block * device::kSpaThreads + t);
                if (b >= launch.resamples) continue;
                for (int v = 0; v < launch.centers; ++v) {
                    launch.maxima[(static_cast<std::size_t>(chunk) * launch.resamples + b) * launch.centers + v] =
                        best[t * device::kSpaMaxCenters + v];
                }
            }
        }
    }
}

void spa_variances_on_host(const device::SpaVarianceLaunch& launch) {
    const unsigned stride = static_cast<unsigned>(launch.observations) | 1u;
    std::vector<double> rows(static_cast<std::size_t>(device::kSpaVarianceThreads) * stride);
    for (unsigned long long first = 0; first < launch.combinations; first += device::kSpaVarianceThreads) {
        const unsigned long long end = std::min<unsigned long long>(first + device::kSpaVarianceThreads, launch.combinations);
        for (unsigned t = 0; t < device::kSpaVarianceThreads; ++t) device::spa_load_streams(launch, rows.data(), first, end, t);
        for (unsigned t = 0; t < device::kSpaVarianceThreads && first + t < end; ++t) {
            launch.variances[first + t] = device::spa_variance_of(launch, rows.data() + t * stride);
        }
    }
}

std::vector<double> merge_spa_maxima(std::span<const double> partial, int resamples, int centers) {
    const std::size_t width = static_cast<std::size_t>(resamples) * static_cast<std::size_t>(centers);
    std::vector<double> maxima(width, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < partial.size(); ++i) maxima[i % width] = std::max(maxima[i % width], partial[i]);
    for (double& m : maxima) m += 0.0;  // a maximum of +0 and -0 depends on which came first
    return maxima;
}

BootstrapScanFactory bootstrap_scan_on_device(std::shared_ptr<const CudaDriver> driver, int device) {
    return [driver, device](const Differentials& d, std::span<const SparseResample> resamples)
               -> std::unique_ptr<BootstrapScan> {
        if (embedded_bootstrap_maxima_image().empty()) {
            throw std::runtime_error("this btforge was built without nvcc: it has no SPA kernel");
        }
        const unsigned tile = device::spa_tile_width(d.observations);
        if (tile == 0 || d.observations > device::kSpaMaxVarianceObservations || d.count == 0) return nullptr;
        return std::make_unique<DeviceBootstrapScan>(*driver, device, d, resamples, tile);
    };
}

}  // namespace btforge::cuda

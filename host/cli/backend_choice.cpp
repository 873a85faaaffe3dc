#include "host/cli/backend_choice.h"

#include <iostream>
#include <stdexcept>

#include "host/backends/emu/emu_backend.h"
#include "host/cuda/cuda_backend.h"
#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_driver.h"
#include "host/cuda/kernel_image.h"

namespace btforge {

namespace po = boost::program_options;

po::options_description backend_options(BackendChoice& c, const std::string& allowed, const std::string& default_name) {
    c.name = default_name;
    po::options_description options("Backend");
    options.add_options()
        ("backend", po::value(&c.name)->default_value(default_name),
         (allowed + ": cpu = the reference on all cores; emu = the generated kernels compiled for the host; "
                    "cuda = the generated kernels on the GPU; auto = cuda when usable, else cpu").c_str())
        ("device", po::value(&c.device)->default_value(0), "GPU ordinal for cuda (see btforge devices)")
        ("kernels", po::value(&c.kernels_file)->value_name("FILE"),
         "load this PTX/cubin/fatbin instead of the kernels embedded in the binary");
    return options;
}

std::string thread_count_text(int threads) {
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

namespace {

// Why cuda cannot run this strategy here, or "" when it can.
std::string cuda_unavailable_reason(const BackendChoice& c, const std::string& strategy,
                                    std::shared_ptr<cuda::CudaDriver>& driver) {
    if (c.kernels_file.empty() && !cuda::embedded_kernel_image(strategy)) return cuda::missing_kernel_reason(strategy);
    std::string why;
    std::unique_ptr<cuda::CudaDriver> opened = cuda::CudaDriver::open(&why);
    if (!opened) return why;
    driver = std::move(opened);
    std::vector<cuda::DeviceInfo> devices = cuda::list_devices(*driver);
    if (devices.empty()) return "the CUDA driver reports no device";
    if (c.device < 0 || c.device >= static_cast<int>(devices.size())) {
        return "no CUDA device " + std::to_string(c.device) + " (this machine has " + std::to_string(devices.size()) +
               ")";
    }
    return "";
}

}  // namespace

ResolvedBackend resolve_backend(const BackendChoice& c, const std::string& strategy, int threads) {
    ResolvedBackend r;
    std::string name = c.name;
    if (name == "auto" || name == "cuda") {
        std::string why = cuda_unavailable_reason(c, strategy, r.driver);
        if (!why.empty()) {
            if (name == "cuda") throw std::runtime_error("--backend cuda cannot run: " + why);
            std::cerr << "btforge: no usable GPU (" << why << "); running on the CPU\n";
            name = "cpu";
            r.driver.reset();
        } else {
            name = "cuda";
        }
    }
    r.name = name;
    if (name == "cpu") {
        r.description = "cpu (" + thread_count_text(threads) + ")";
        r.run = &run_cpu_sweep;
    } else if (name == "emu") {
        if (!emu_supports(strategy)) {
            throw std::runtime_error("no generated kernel for strategy '" + strategy +
                                     "' (--backend emu); add it to spec/generator.json and regenerate");
        }
        r.description = "emu (host-compiled generated code, " + thread_count_text(threads) + ")";
        r.run = &run_emu_sweep;
    } else if (name == "cuda") {
        cuda::DeviceInfo device = cuda::describe_device(*r.driver, c.device);
        r.description = "cuda (device " + std::to_string(device.index) + ": " + device.name + ", sm_" +
                        std::to_string(device.compute_major) + std::to_string(device.compute_minor) + ", driver " +
                        cuda::format_cuda_version(r.driver->version()) + ")";
        cuda::CudaRunOptions options;
        options.device = c.device;
        if (!c.kernels_file.empty()) options.kernel_file = c.kernels_file;
        r.cuda_stats = std::make_shared<cuda::CudaSweepStats>();
        std::shared_ptr<cuda::CudaDriver> driver = r.driver;
        std::shared_ptr<cuda::CudaSweepStats> stats = r.cuda_stats;
        r.run = [driver, stats, options](const SweepJob& job, const SweepOptions& sweep) {
            return cuda::run_cuda_sweep(*driver, job, sweep, options, stats.get());
        };
    } else {
        throw po::error("unknown backend '" + c.name + "' for --backend");
    }
    return r;
}

}  // namespace btforge

#include <iostream>
#include <memory>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_driver.h"
#include "host/cuda/kernel_image.h"

namespace btforge {

namespace po = boost::program_options;

int run_devices_command(const std::vector<std::string>& args) {
    po::options_description options;
    if (!parse_command_line(args,
                            "Usage: btforge devices\n"
                            "Lists the CUDA devices the driver sees and the kernels this binary carries.",
                            options)) {
        return kExitOk;
    }
    const cuda::EmbeddedKernelBuild& build = cuda::embedded_kernel_build();
    if (build.built_with_nvcc) {
        std::cout << "kernels in this binary: nvcc " << build.cuda_version << ", cubins " << build.architectures
                  << ", PTX " << build.ptx_architecture << '\n';
    } else {
        std::cout << cuda::kBuiltWithoutNvcc << '\n';
    }
    std::string why;
    std::unique_ptr<cuda::CudaDriver> driver = cuda::CudaDriver::open(&why);
    if (!driver) {
        std::cout << why << "; sweeps run on the CPU\n";
        return kExitOk;
    }
    std::vector<cuda::DeviceInfo> devices = cuda::list_devices(*driver);
    std::cout << cuda::format_devices(driver->version(), devices);
    for (const cuda::DeviceInfo& device : devices) {
        std::string fit = cuda::embedded_kernel_fit(device);
        if (!fit.empty()) std::cout << "device " << device.index << ": " << fit << '\n';
    }
    return kExitOk;
}

}  // namespace btforge

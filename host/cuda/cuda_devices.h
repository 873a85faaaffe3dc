#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cuda/cuda_driver.h"

namespace btforge::cuda {

struct DeviceInfo {
    int index = 0;                  // the ordinal --device takes
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    std::uint64_t total_memory = 0;  // bytes
    int multiprocessors = 0;
    int clock_khz = 0;
    std::string pci_bus;             // "0000:65:00.0"
    int driver_version = 0;          // cuDriverGetVersion, 13000 for CUDA 13.0
};

// Every device the driver sees, in ordinal order. Throws CudaError.
std::vector<DeviceInfo> list_devices(const CudaDriver& driver);
DeviceInfo describe_device(const CudaDriver& driver, int index);

// How the embedded kernels run on a device: "cubin sm_90", "PTX compute_90,
// JIT-compiled at load", or why they cannot ("needs sm_80 or newer").
std::string embedded_kernel_fit(const DeviceInfo& device);

// The text of `btforge devices`: the driver, then one line per device.
std::string format_devices(int driver_version, const std::vector<DeviceInfo>& devices);

}  // namespace btforge::cuda

#include "host/cuda/cuda_devices.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "host/cuda/byte_count.h"
#include "host/cuda/kernel_image.h"

namespace btforge::cuda {

namespace {

int attribute(const CudaDriver& driver, CUdevice device, int which, const char* name) {
    int value = 0;
    driver.check(driver.api().cuDeviceGetAttribute(&value, which, device),
                 std::string("reading ") + name + " of device " + std::to_string(device));
    return value;
}

// "sm_80" -> 80, "compute_90" -> 90.
int arch_number(const std::string& arch) {
    std::size_t underscore = arch.find('_');
    return underscore == std::string::npos ? 0 : std::atoi(arch.c_str() + underscore + 1);
}

}  // namespace

DeviceInfo describe_device(const CudaDriver& driver, int index) {
    const DriverApi& api = driver.api();
    CUdevice device = 0;
    driver.check(api.cuDeviceGet(&device, index), "opening device " + std::to_string(index));
    DeviceInfo info;
    info.index = index;
    char name[256] = {};
    driver.check(api.cuDeviceGetName(name, static_cast<int>(sizeof name), device),
                 "reading the name of device " + std::to_string(index));
    info.name = name;
    info.compute_major = attribute(driver, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "the compute capability");
    info.compute_minor = attribute(driver, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "the compute capability");
    std::size_t total = 0;
    driver.check(api.cuDeviceTotalMem(&total, device), "reading the memory size of device " + std::to_string(index));
    info.total_memory = total;
    info.multiprocessors = attribute(driver, device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "the multiprocessor count");
    info.clock_khz = attribute(driver, device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "the clock rate");
    char bus[32];
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0",
                  static_cast<unsigned>(attribute(driver, device, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, "the PCI domain")),
                  static_cast<unsigned>(attribute(driver, device, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, "the PCI bus")),
                  static_cast<unsigned>(attribute(driver, device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, "the PCI device")));
    info.pci_bus = bus;
    info.driver_version = driver.version();
    return info;
}

std::vector<DeviceInfo> list_devices(const CudaDriver& driver) {
    int count = 0;
    driver.check(driver.api().cuDeviceGetCount(&count), "counting the CUDA devices");
    std::vector<DeviceInfo> devices;
    for (int i = 0; i < count; ++i) devices.push_back(describe_device(driver, i));
    return devices;
}

std::string embedded_kernel_fit(const DeviceInfo& device) {
    const EmbeddedKernelBuild& build = embedded_kernel_build();
    if (!build.built_with_nvcc) return "no kernels in this binary";
    const int sm = device.compute_major * 10 + device.compute_minor;
    // The driver takes a cubin of the same major and an equal or lower minor
    // (sm_86 runs on 8.9), the closest one; failing that it JIT-compiles the
    // PTX, which any GPU of at least its compute capability accepts.
    int best = 0;
    int oldest = 0;
    std::istringstream archs(build.architectures);
    for (std::string arch; archs >> arch;) {
        int n = arch_number(arch);
        if (n / 10 == device.compute_major && n <= sm && n > best) best = n;
        if (oldest == 0 || n < oldest) oldest = n;
    }
    if (best != 0) return "cubin sm_" + std::to_string(best);
    std::string ptx = build.ptx_architecture;
    if (sm >= arch_number(ptx)) return "PTX " + ptx + ", JIT-compiled at load";
    return "none: the kernels need sm_" + std::to_string(oldest) + " or newer";
}

std::string format_devices(int driver_version, const std::vector<DeviceInfo>& devices) {
    std::ostringstream out;
    out << "CUDA driver: supports CUDA " << format_cuda_version(driver_version) << " (" << kDriverLibrary << ")\n";
    const EmbeddedKernelBuild& build = embedded_kernel_build();
    if (build.built_with_nvcc) {
        out << "GPU kernels: built by nvcc " << build.cuda_version << " (cubins " << build.architectures << ", PTX "
            << build.ptx_architecture << ")\n";
    } else {
        out << "GPU kernels: " << kBuiltWithoutNvcc << "\n";
    }
    if (devices.empty()) {
        out << "no CUDA device\n";
        return out.str();
    }
    for (const DeviceInfo& d : devices) {
        char clock[32];
        std::snprintf(clock, sizeof clock, "%d MHz", d.clock_khz / 1000);
        out << "device " << d.index << ": " << d.name << ", compute " << d.compute_major << "." << d.compute_minor
            << ", " << format_bytes(d.total_memory) << ", " << d.multiprocessors << " SMs at " << clock << ", PCI "
            << d.pci_bus << "; kernels: " << embedded_kernel_fit(d) << "\n";
    }
    return out.str();
}

}  // namespace btforge::cuda

#include <string>

#include <doctest/doctest.h>

#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_module.h"
#include "host/cuda/kernel_image.h"

using namespace btforge::cuda;

namespace {

ModuleSource embedded(int driver_version, int major, int minor) {
    ModuleSource s;
    s.origin = "the embedded kernels of strategy 'default'";
    s.kind = KernelImageKind::fatbin;
    s.cuda_version = "13.0";
    s.architectures = "sm_80 sm_86 sm_89 sm_90";
    s.ptx_architecture = "compute_90";
    s.driver_version = driver_version;
    s.compute_major = major;
    s.compute_minor = minor;
    return s;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("PTX newer than the driver: the driver's version and the series it needs") {
    std::string message = explain_module_load_failure(
        CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
        "loading the embedded kernels of strategy 'default': CUDA_ERROR_UNSUPPORTED_PTX_VERSION (the provided PTX "
        "was compiled with an unsupported toolchain.)",
        "", embedded(12040, 10, 0));
    INFO(message);
    CHECK(message.find("loading the embedded kernels of strategy 'default': CUDA_ERROR_UNSUPPORTED_PTX_VERSION") == 0);
    CHECK(contains(message, "supports CUDA 12.4 (cuDriverGetVersion 12040)"));
    CHECK(contains(message, "built by CUDA 13.0"));
    CHECK(contains(message, "of the 580 series or newer"));
    CHECK(contains(message, "compute capability 10.0 (sm_100)"));
}

TEST_CASE("PTX from a --kernels file newer than the driver") {
    ModuleSource s;
    s.origin = "/tmp/k.ptx";
    s.kind = KernelImageKind::ptx;
    s.driver_version = 12020;
    s.compute_major = 9;
    std::string message = explain_module_load_failure(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "loading /tmp/k.ptx: X (y)",
                                                      "ptxas fatal", s);
    CHECK(contains(message, "supports CUDA 12.2"));
    CHECK(contains(message, "no newer than 12.2"));
    CHECK(contains(message, "JIT log:\nptxas fatal"));
}

TEST_CASE("no code for this GPU: too old a GPU, or too old a driver") {
    std::string old_gpu = explain_module_load_failure(CUDA_ERROR_NO_BINARY_FOR_GPU, "loading k: CUDA_ERROR_NO_BINARY_FOR_GPU (d)",
                                                      "", embedded(13000, 7, 5));
    CHECK(contains(old_gpu, "sm_75"));
    CHECK(contains(old_gpu, "needs sm_80 or newer"));
    std::string old_driver = explain_module_load_failure(CUDA_ERROR_NO_BINARY_FOR_GPU, "loading k: CUDA_ERROR_NO_BINARY_FOR_GPU (d)",
                                                         "", embedded(12080, 9, 0));
    CHECK(contains(old_driver, "supports CUDA 12.8"));
    CHECK(contains(old_driver, "580 series"));
    CHECK(driver_series_for_cuda("13.0") == "580");
    CHECK(driver_series_for_cuda("99.9").empty());
}

TEST_CASE("which embedded code a device runs") {
    if (!embedded_kernel_build().built_with_nvcc) {
        CHECK(embedded_kernel_fit(DeviceInfo{}) == "no kernels in this binary");
        return;
    }
    auto fit = [](int major, int minor) {
        DeviceInfo d;
        d.compute_major = major;
        d.compute_minor = minor;
        return embedded_kernel_fit(d);
    };
    // spec/generator.json: cubins sm_80 sm_86 sm_89 sm_90, PTX compute_90.
    CHECK(fit(9, 0) == "cubin sm_90");
    CHECK(fit(8, 0) == "cubin sm_80");
    CHECK(fit(8, 7) == "cubin sm_86");
    CHECK(fit(10, 0) == "PTX compute_90, JIT-compiled at load");
    CHECK(fit(12, 0) == "PTX compute_90, JIT-compiled at load");
    CHECK(fit(7, 5) == "none: the kernels need sm_80 or newer");
}

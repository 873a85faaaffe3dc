#include <dlfcn.h>

#include <string>

#include <doctest/doctest.h>

#include "host/cuda/byte_count.h"
#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_driver.h"
#include "host/cuda/cuda_error.h"

using namespace btforge::cuda;

namespace {

// Whether this machine has a driver library at all; decides what open()
// must do (CI and the build machines have none, a GPU machine has one).
bool driver_library_present() {
    void* library = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return false;
    dlclose(library);
    return true;
}

}  // namespace

TEST_CASE("CudaDriver::open: without libcuda.so.1 it says so, with it it opens") {
    std::string why_not;
    std::unique_ptr<CudaDriver> driver = CudaDriver::open(&why_not);
    if (!driver_library_present()) {
        CHECK(driver == nullptr);
        CHECK(why_not.find("libcuda.so.1") != std::string::npos);
        CHECK(why_not.find("no CUDA driver") == 0);
        CHECK(why_not.find('\n') == std::string::npos);
        CHECK(CudaDriver::open(nullptr) == nullptr);  // the reason is optional
    } else {
        INFO("CudaDriver::open failed: " << why_not);
        REQUIRE(driver != nullptr);
        CHECK(driver->version() >= 1000);
        std::vector<DeviceInfo> devices = list_devices(*driver);
        std::string text = format_devices(driver->version(), devices);
        CHECK(text.find("CUDA driver: supports CUDA") == 0);
        for (const DeviceInfo& d : devices) {
            CHECK(d.compute_major >= 1);
            CHECK(d.total_memory > 0);
            CHECK(text.find("device " + std::to_string(d.index) + ": " + d.name) != std::string::npos);
        }
        try {
            driver->check(CUDA_ERROR_INVALID_VALUE, "testing the error path");
            FAIL("check() did not throw");
        } catch (const CudaError& e) {
            CHECK(e.code() == CUDA_ERROR_INVALID_VALUE);
            CHECK(std::string(e.what()).find("testing the error path: CUDA_ERROR_INVALID_VALUE (") == 0);
        }
    }
}

TEST_CASE("CUDA errors read '<attempt>: <NAME> (<description>)'") {
    CHECK(format_cuda_error("allocating 1.0 MiB on the device for result rows", 2, "CUDA_ERROR_OUT_OF_MEMORY",
                            "out of memory") ==
          "allocating 1.0 MiB on the device for result rows: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
    CHECK(format_cuda_error("cuInit", 12345, nullptr, nullptr) ==
          "cuInit: CUDA error 12345 (the driver has no description for this code)");
    CudaError error(CUDA_ERROR_NO_DEVICE, "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
    CHECK(error.code() == 100);
    CHECK(std::string(error.what()) == "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
}

TEST_CASE("versions and sizes as the messages print them") {
    CHECK(format_cuda_version(13000) == "13.0");
    CHECK(format_cuda_version(12040) == "12.4");
    CHECK(format_cuda_version(12090) == "12.9");
    CHECK(format_bytes(0) == "0 B");
    CHECK(format_bytes(1023) == "1023 B");
    CHECK(format_bytes(1536) == "1.5 KiB");
    CHECK(format_bytes(std::uint64_t{80} << 30) == "80.0 GiB");
}

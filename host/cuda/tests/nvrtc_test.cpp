#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "host/cuda/jit_compile.h"
#include "host/cuda/jit_source.h"
#include "host/cuda/nvrtc_library.h"

using namespace btforge::cuda;

// Note [NVRTC in the tests]
// NVRTC is a host library: compiling needs no GPU, so these run on the build
// machines, which have the toolkit at /usr/local/cuda. Where NVRTC is absent
// the tests that need it say so and check the plain error instead.

TEST_CASE("NvrtcLibrary: a missing library gives the plain error") {
    std::string why_not;
    auto nvrtc = NvrtcLibrary::open({"libnvrtc-btforge-missing.so.13", "/nonexistent/libnvrtc.so"}, &why_not);
    CHECK(nvrtc == nullptr);
    CHECK(why_not == "--jit needs NVRTC (libnvrtc-btforge-missing.so.13): not found; install the CUDA runtime "
                     "libraries or drop --jit");
    CHECK(NvrtcLibrary::open(std::vector<std::string>{}, nullptr) == nullptr);
}

TEST_CASE("nvrtc_library_candidates: versioned names first, then the toolkit directories") {
    std::vector<std::string> candidates = nvrtc_library_candidates();
    REQUIRE(candidates.size() >= 6);
    CHECK(candidates[0] == "libnvrtc.so.13");
    CHECK(candidates[1] == "libnvrtc.so.12");
    CHECK(candidates[2] == "libnvrtc.so");
    CHECK(std::find(candidates.begin(), candidates.end(), "/usr/local/cuda/lib64/libnvrtc.so.13") != candidates.end());
}

TEST_CASE("NvrtcLibrary: opens the installed NVRTC and reports its version") {
    std::string why_not;
    auto nvrtc = NvrtcLibrary::open(&why_not);
    if (nvrtc == nullptr) {
        MESSAGE("no NVRTC on this machine: " << why_not);
        CHECK(why_not.find("--jit needs NVRTC (libnvrtc.so.13): not found") == 0);
        return;
    }
    MESSAGE("NVRTC " << nvrtc->version() << " from " << nvrtc->path());
    CHECK(nvrtc->major() >= 11);
    CHECK(nvrtc->version() == std::to_string(nvrtc->major()) + "." + std::to_string(nvrtc->minor()));
    CHECK(nvrtc->error_string(NVRTC_ERROR_COMPILATION) == "NVRTC_ERROR_COMPILATION");
    std::vector<int> archs = nvrtc->supported_architectures();
    if (!archs.empty()) {
        CHECK(std::find(archs.begin(), archs.end(), 90) != archs.end());
        CHECK_NOTHROW(check_nvrtc_supports(*nvrtc, 9, 0));
        CHECK_THROWS_WITH_AS(check_nvrtc_supports(*nvrtc, 1, 0), doctest::Contains("cannot compile for sm_10"),
                             std::runtime_error);
    }
}

TEST_CASE("nvrtc_compile: the embedded sma_cross source, one parameter folded, for sm_90") {
    std::string why_not;
    std::shared_ptr<const NvrtcLibrary> nvrtc = NvrtcLibrary::open(&why_not);
    if (nvrtc == nullptr) {
        MESSAGE("skipped: " << why_not);
        return;
    }
    const JitSource source = embedded_jit_source("sma_cross");
    const std::vector<FixedParameter> fixed = {{"stop_pct", false, 0.03}};
    const std::vector<std::string> options = jit_compile_options(9, 0, nvrtc->has_cubin(), fixed);
    JitImage image = nvrtc_compile(*nvrtc, source, options);
    REQUIRE_FALSE(image.bytes.empty());
    const std::string_view bytes(reinterpret_cast<const char*>(image.bytes.data()), image.bytes.size());
    if (nvrtc->has_cubin()) {
        CHECK(image.kind == KernelImageKind::cubin);
        CHECK(classify_kernel_image(image.bytes) == KernelImageKind::cubin);
    } else {
        CHECK(image.kind == KernelImageKind::ptx);
        CHECK(image.bytes.back() == 0);
    }
    CHECK(bytes.find("btforge_sma_cross_sweep") != std::string_view::npos);

    // Folding changes the code: the folded parameter is no longer read from
    // the decode table (the constant itself may be folded further, so its
    // bits need not appear verbatim).
    JitImage ptx = nvrtc_compile(*nvrtc, source, jit_compile_options(9, 0, false, fixed));
    JitImage generic = nvrtc_compile(*nvrtc, source, jit_compile_options(9, 0, false, {}));
    CHECK(ptx.kind == KernelImageKind::ptx);
    const std::string_view ptx_text(reinterpret_cast<const char*>(ptx.bytes.data()), ptx.bytes.size());
    CHECK(ptx_text.find(".entry btforge_sma_cross_sweep") != std::string_view::npos);
    CHECK(ptx.bytes != generic.bytes);
}

TEST_CASE("nvrtc_compile: every embedded strategy compiles for sm_80 and sm_90 with nothing folded") {
    std::string why_not;
    std::shared_ptr<const NvrtcLibrary> nvrtc = NvrtcLibrary::open(&why_not);
    if (nvrtc == nullptr) {
        MESSAGE("skipped: " << why_not);
        return;
    }
    for (const EmbeddedText& kernel : detail::embedded_generated_kernels()) {
        std::string strategy(kernel.name);
        strategy.resize(strategy.size() - std::string_view("_sweep.cu").size());
        const JitSource source = embedded_jit_source(strategy);
        for (int major : {8, 9}) {
            INFO(strategy << " sm_" << major << "0");
            JitImage image = nvrtc_compile(*nvrtc, source, jit_compile_options(major, 0, nvrtc->has_cubin(), {}));
            const std::string_view bytes(reinterpret_cast<const char*>(image.bytes.data()), image.bytes.size());
            CHECK(bytes.find(source.entry_point) != std::string_view::npos);
        }
    }
}

TEST_CASE("nvrtc_compile: a compile error carries NVRTC's log") {
    std::string why_not;
    std::shared_ptr<const NvrtcLibrary> nvrtc = NvrtcLibrary::open(&why_not);
    if (nvrtc == nullptr) {
        MESSAGE("skipped: " << why_not);
        return;
    }
    JitSource broken;
    broken.name = "broken_sweep.cu";
    broken.text = "extern \"C\" __global__ void f() { undeclared_thing(); }\n";
    CHECK_THROWS_WITH_AS(nvrtc_compile(*nvrtc, broken, jit_compile_options(9, 0, true, {})),
                         doctest::Contains("undeclared_thing"), JitCompileError);
}

// btforge._core: the C++ engine for the Python package (python/btforge).
// The package's modules call these few entry points; everything they run is
// the code the command line runs (Note [One sweep, two front ends]).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "host/cuda/kernel_image.h"
#include "host/engine/metric_columns.h"
#include "host/strategies/strategy_binding.h"
#include "host/version/build_version.h"
#include "python/src/bindings.h"
#include "python/src/error_translation.h"

namespace nb = nanobind;

NB_MODULE(_core, m) {
    using namespace btforge::python;
    register_error_translation();
    bind_market(m);
    bind_sweep(m);
    bind_replay(m);
    bind_indicators(m);
    m.def("strategies", [] {
        std::vector<std::string> names;
        for (const btforge::StrategyBinding& b : btforge::strategy_bindings()) names.emplace_back(b.name);
        return names;
    });
    // The ranking direction of every metric column, for the pictures' colours (btforge.plots).
    m.def("metric_higher_is_better", [] {
        std::map<std::string, bool> direction;
        for (const btforge::MetricColumn& c : btforge::metric_columns()) direction[std::string(c.name)] = c.higher_is_better;
        return direction;
    });
    m.attr("version") = btforge::build_version();
    // What this build is and carries: `btforge --version` and the first line of `btforge devices`.
    m.def("build_info", [] {
        const btforge::cuda::EmbeddedKernelBuild& kernels = btforge::cuda::embedded_kernel_build();
        nb::dict info;
        info["version"] = btforge::build_version();
        info["commit"] = btforge::build_commit();
        info["kernels_nvcc"] = kernels.built_with_nvcc ? kernels.cuda_version : "";
        info["kernels_cubins"] = kernels.architectures;
        info["kernels_ptx"] = kernels.ptx_architecture;
        return info;
    });
}

#include <map>
#include <stdexcept>

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "host/indicators/aligned_series.h"
#include "host/indicators/indicator_registry.h"
#include "python/src/bindings.h"
#include "python/src/market_binding.h"
#include "python/src/numpy_arrays.h"

namespace nb = nanobind;

namespace btforge::python {

namespace {

// Every output of one indicator on every symbol, in the aligned layout
// ([symbols x bars], Note [Aligned market layout]), exactly as sweeps use
// it (compute_aligned_series, the code behind `btforge indicators`).
nb::dict indicator(const MarketHandle& market, const std::string& name, const std::map<std::string, double>& given,
                   const std::string& input) {
    const IndicatorDescriptor* descriptor = find_indicator(name);
    if (descriptor == nullptr) throw std::invalid_argument("unknown indicator '" + name + "' (see btforge.indicator_catalog())");
    std::vector<double> params;
    for (const IndicatorParam& p : descriptor->params) {
        const auto it = given.find(std::string(p.name));
        if (it == given.end()) throw std::invalid_argument(name + " needs the parameter " + std::string(p.name));
        params.push_back(it->second);
    }
    for (const auto& [key, value] : given) {
        bool known = false;
        for (const IndicatorParam& p : descriptor->params) known = known || p.name == key;
        if (!known) throw std::invalid_argument(name + " has no parameter '" + key + "'");
    }
    validate_indicator_params(*descriptor, params);
    resolve_input_column(*descriptor, input);
    const Market& m = market.loaded->market;
    nb::dict out;
    std::vector<std::vector<double>> series;
    {
        nb::gil_scoped_release unlocked;
        for (std::string_view output : descriptor->outputs) {
            series.push_back(compute_aligned_series(m, descriptor->name, output, params, input));
        }
    }
    for (std::size_t i = 0; i < series.size(); ++i) {
        out[std::string(descriptor->outputs[i]).c_str()] = array_of(std::move(series[i]));
    }
    return out;
}

nb::list catalog() {
    nb::list out;
    for (const IndicatorDescriptor& d : indicator_catalog()) {
        nb::dict entry;
        entry["name"] = std::string(d.name);
        nb::list params, outputs, inputs;
        for (const IndicatorParam& p : d.params) {
            nb::dict param;
            param["name"] = std::string(p.name);
            param["integer"] = p.integer;
            param["minimum"] = p.minimum;  // Note [Parameter domains]: both bounds inclusive
            param["maximum"] = p.maximum;
            params.append(param);
        }
        for (std::string_view o : d.outputs) outputs.append(std::string(o));
        for (PriceInput i : d.inputs) inputs.append(std::string(price_input_name(i)));
        entry["params"] = params;
        entry["outputs"] = outputs;
        entry["inputs"] = inputs;
        entry["cross_symbol"] = d.cross_symbol;
        entry["takes_input_column"] = takes_input_column(d);
        entry["semantics"] = std::string(d.semantics);
        out.append(entry);
    }
    return out;
}

}  // namespace

void bind_indicators(nb::module_& m) {
    m.def("indicator", &indicator, nb::arg("market"), nb::arg("name"), nb::arg("params"), nb::arg("input") = "");
    m.def("indicator_catalog", &catalog);
}

}  // namespace btforge::python

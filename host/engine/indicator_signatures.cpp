#include "host/engine/indicator_signatures.h"

#include "host/indicators/indicator_registry.h"

namespace btforge {

std::vector<IndicatorSignature> indicator_signatures() {
    std::vector<IndicatorSignature> signatures;
    for (const IndicatorDescriptor& d : indicator_catalog()) {
        IndicatorSignature s;
        s.name = std::string(d.name);
        for (const IndicatorParam& p : d.params) {
            s.params.emplace_back(p.name);
            s.integer_params.push_back(p.integer);
            s.param_minimum.push_back(p.minimum);
            s.param_maximum.push_back(p.maximum);
            s.param_domain.push_back(describe_domain(p));
        }
        for (std::string_view o : d.outputs) s.outputs.emplace_back(o);
        for (PriceInput input : d.inputs) s.inputs.emplace_back(price_input_name(input));
        if (takes_input_column(d)) {
            for (int i = 0; i < kPriceInputs; ++i) s.input_columns.emplace_back(price_input_name(static_cast<PriceInput>(i)));
        }
        s.cross_symbol = d.cross_symbol;
        signatures.push_back(std::move(s));
    }
    return signatures;
}

}  // namespace btforge

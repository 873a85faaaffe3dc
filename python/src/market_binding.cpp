#include "python/src/bindings.h"
#include "python/src/market_binding.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "host/data/instruments.h"
#include "python/src/numpy_arrays.h"
#include "python/src/run_options.h"

namespace nb = nanobind;

namespace btforge::python {

namespace {

MarketHandle load(nb::dict options) {
    RunOptions read(options);
    const MarketChoice choice = read.market();
    read.check_all_read();
    MarketHandle handle;
    nb::gil_scoped_release unlocked;
    handle.loaded = std::make_shared<const LoadedMarket>(load_market(choice));
    return handle;
}

// The [symbols x bars] array of one column of the aligned layout (Note
// [Aligned market layout]), viewed in place.
nb::object column(nb::handle self, const std::string& name) {
    const Market& market = nb::cast<const MarketHandle&>(self).loaded->market;
    const auto rows = static_cast<std::size_t>(market.n_symbols());
    const auto bars = static_cast<std::size_t>(market.n_bars());
    const std::vector<double>* values = nullptr;
    if (name == "open") values = &market.open;
    if (name == "high") values = &market.high;
    if (name == "low") values = &market.low;
    if (name == "close") values = &market.close;
    if (name == "volume") values = &market.volume;
    if (name == "funding_rate") values = &market.funding_rate;
    if (values != nullptr) return nb::cast(view_of(values->data(), rows, bars, self));
    if (name == "tradable") return nb::cast(view_of(market.tradable.data(), rows, bars, self));
    if (name == "funding_events") return nb::cast(view_of(market.funding_events.data(), rows, bars, self));
    throw nb::key_error(("no market column '" + name + "'").c_str());
}

}  // namespace

void bind_market(nb::module_& m) {
    nb::class_<MarketHandle>(m, "MarketHandle")
        .def_prop_ro("symbols", [](const MarketHandle& h) { return h.loaded->market.symbols; })
        .def_prop_ro("n_bars", [](const MarketHandle& h) { return h.loaded->market.n_bars(); })
        .def_prop_ro("description", [](const MarketHandle& h) { return h.loaded->description; })
        .def_prop_ro("timestamp_note", [](const MarketHandle& h) { return h.loaded->timestamp_note; })
        .def_prop_ro("loading_note", [](const MarketHandle& h) { return h.loaded->loading_note; })
        .def_prop_ro("funding_note", [](const MarketHandle& h) { return h.loaded->funding_note; })
        // Note [Instruments stated]
        .def_prop_ro("instruments_note", [](const MarketHandle& h) { return describe_instruments(*h.loaded, 3); })
        .def("write_instruments",
             [](const MarketHandle& h, const std::string& path) {
                 write_instruments(h.loaded->market.symbols, h.loaded->market.instruments, path);
             },
             nb::arg("path"))
        .def_prop_ro("timestamp_ms",
                     [](nb::handle self) {
                         const Market& market = nb::cast<const MarketHandle&>(self).loaded->market;
                         return view_of(market.timestamp_ms.data(), market.timestamp_ms.size(), 0, self);
                     })
        .def("instrument",
             [](const MarketHandle& h, int symbol) {
                 const Instrument& i = h.loaded->market.instruments.at(static_cast<std::size_t>(symbol));
                 nb::dict out;
                 out["qty_step"] = i.qty_step;
                 out["min_qty"] = i.min_qty;
                 out["price_tick"] = i.price_tick;
                 return out;
             })
        .def("column", &column, nb::arg("name"));
    m.def("load_market", &load, nb::arg("options"),
          "Loads a market as `btforge sweep`'s market options would (keys: the options' names with '_').");
}

}  // namespace btforge::python

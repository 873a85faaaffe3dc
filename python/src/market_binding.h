#pragma once

#include <memory>

#include <nanobind/nanobind.h>

#include "host/app/market_choice.h"

namespace btforge::python {

// A loaded market, shared by every run that uses it (Python's btforge.Market
// holds one).
struct MarketHandle {
    std::shared_ptr<const LoadedMarket> loaded;
};

}  // namespace btforge::python

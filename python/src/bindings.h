#pragma once

#include <nanobind/nanobind.h>

namespace btforge::python {

// One per Python-facing part of the engine, each in its own file.
void bind_market(nanobind::module_& m);      // market_binding.cpp
void bind_sweep(nanobind::module_& m);       // sweep_binding.cpp
void bind_replay(nanobind::module_& m);      // replay_binding.cpp
void bind_indicators(nanobind::module_& m);  // indicators_binding.cpp

}  // namespace btforge::python

#pragma once

#include <span>
#include <string>
#include <string_view>

namespace btforge {

// A compilation of the generated kernels for markets of up to max_symbols
// symbols (Note [Kernel variants] in reference/market/symbol_capacity.h),
// as generated/btforge_entry_points.h lists them, smallest first.
struct KernelVariant {
    std::string_view name;  // "narrow", "wide"
    int max_symbols;
    std::string_view suffix;  // of the entry points' names: "" for the first, "_wide"
};

std::span<const KernelVariant> kernel_variants();

// The variant a market of n_symbols runs on: `requested` by name, or with ""
// (or "auto") the smallest that holds it. Throws std::invalid_argument
// naming the variants when the name is unknown or the variant too small.
const KernelVariant& choose_kernel_variant(int n_symbols, std::string_view requested = "");

// Throws std::invalid_argument naming the variants unless `name` is "auto"
// or a variant's name: --kernel-variant checked before any work.
void check_kernel_variant_name(std::string_view name);

// "wide (up to 512 symbols)", for run headers and results.
std::string describe_kernel_variant(const KernelVariant& variant);

// "narrow (up to 16), wide (up to 512)", for option help and errors.
std::string list_kernel_variants();

}  // namespace btforge

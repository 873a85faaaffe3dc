#include "host/backends/kernel_variant.h"

#include <stdexcept>

#include "generated/btforge_entry_points.h"

namespace btforge {

namespace {

#define BTFORGE_VARIANT_ENTRY(name, max_symbols, suffix) KernelVariant{#name, max_symbols, #suffix},
constexpr KernelVariant kVariants[] = {BTFORGE_FOR_EACH_KERNEL_VARIANT(BTFORGE_VARIANT_ENTRY)};
#undef BTFORGE_VARIANT_ENTRY

std::string symbols_text(int n) { return std::to_string(n) + (n == 1 ? " symbol" : " symbols"); }

const KernelVariant* find_variant(std::string_view name) {
    for (const KernelVariant& v : kVariants) {
        if (v.name == name) return &v;
    }
    return nullptr;
}

}  // namespace

std::span<const KernelVariant> kernel_variants() { return kVariants; }

void check_kernel_variant_name(std::string_view name) {
    if (name != "auto" && find_variant(name) == nullptr) {
        throw std::invalid_argument("unknown --kernel-variant '" + std::string(name) + "' (auto, or one of " +
                                    list_kernel_variants() + ")");
    }
}

std::string describe_kernel_variant(const KernelVariant& variant) {
    return std::string(variant.name) + " (up to " + symbols_text(variant.max_symbols) + ")";
}

std::string list_kernel_variants() {
    std::string out;
    for (const KernelVariant& v : kVariants) {
        out += (out.empty() ? "" : ", ") + std::string(v.name) + " (up to " + std::to_string(v.max_symbols) + ")";
    }
    return out;
}

const KernelVariant& choose_kernel_variant(int n_symbols, std::string_view requested) {
    if (requested.empty() || requested == "auto") {
        for (const KernelVariant& v : kVariants) {
            if (n_symbols <= v.max_symbols) return v;
        }
        throw std::invalid_argument("a market of " + std::to_string(n_symbols) +
                                    " symbols: no kernel variant holds it (" + list_kernel_variants() + ")");
    }
    check_kernel_variant_name(requested);
    const KernelVariant& v = *find_variant(requested);
    if (n_symbols > v.max_symbols) {
        throw std::invalid_argument("--kernel-variant " + std::string(requested) + " holds up to " +
                                    symbols_text(v.max_symbols) + "; this market has " + std::to_string(n_symbols));
    }
    return v;
}

}  // namespace btforge

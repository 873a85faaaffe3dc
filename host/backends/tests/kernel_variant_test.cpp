#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "host/backends/emu/emu_kernels.h"
#include "host/backends/kernel_variant.h"
#include "host/strategies/strategy_binding.h"
#include "reference/market/symbol_capacity.h"

using namespace btforge;

// Note [Kernel variants]
TEST_CASE("kernel variants: smallest first, the last as large as the reference's capacity") {
    REQUIRE(kernel_variants().size() >= 2);
    CHECK(kernel_variants().front().suffix.empty());
    for (std::size_t i = 1; i < kernel_variants().size(); ++i) {
        CHECK(kernel_variants()[i - 1].max_symbols < kernel_variants()[i].max_symbols);
        CHECK(kernel_variants()[i].suffix == "_" + std::string(kernel_variants()[i].name));
    }
    // Note [Run shape]: the first holds one symbol, whose count it folds.
    CHECK(kernel_variants().front().max_symbols == 1);
    CHECK(kernel_variants()[1].max_symbols == 16);
    CHECK(kernel_variants().back().max_symbols == kMaxSymbols);
    CHECK(kMaxSymbols >= 512);
}

TEST_CASE("choose_kernel_variant: the smallest that holds the market, or the one asked for if it holds it") {
    const KernelVariant& single = kernel_variants().front();
    const KernelVariant& narrow = kernel_variants()[1];
    const KernelVariant& wide = kernel_variants().back();
    struct Case {
        int symbols;
        const char* requested;
        const KernelVariant* expected;
    };
    const Case cases[] = {
        {1, "", &single},          {1, "auto", &single},   {2, "", &narrow},
        {16, "", &narrow},         {16, "auto", &narrow},  {17, "", &wide},
        {300, "auto", &wide},      {kMaxSymbols, "", &wide},
        {3, wide.name.data(), &wide},                      {16, narrow.name.data(), &narrow},
        {1, narrow.name.data(), &narrow},                  {1, wide.name.data(), &wide},
    };
    for (const Case& c : cases) {
        CAPTURE(c.symbols);
        CAPTURE(c.requested);
        CHECK(&choose_kernel_variant(c.symbols, std::string(c.requested)) == c.expected);
    }
    CHECK_THROWS_WITH_AS(choose_kernel_variant(kMaxSymbols + 1), doctest::Contains("no kernel variant holds it"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(choose_kernel_variant(17, std::string(narrow.name)), doctest::Contains("holds up to 16"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(choose_kernel_variant(2, std::string(single.name)), doctest::Contains("holds up to 1 symbol;"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(choose_kernel_variant(3, "huge"), doctest::Contains("unknown --kernel-variant 'huge'"),
                         std::invalid_argument);
    CHECK(describe_kernel_variant(wide) == std::string(wide.name) + " (up to " + std::to_string(kMaxSymbols) +
                                               " symbols)");
}

TEST_CASE("the emu backend has every strategy's kernels in every variant, under distinct entry points") {
    const auto first = emu::emu_kernels(kernel_variants().front().name);
    for (const KernelVariant& v : kernel_variants()) {
        CAPTURE(v.name);
        const auto kernels = emu::emu_kernels(v.name);
        REQUIRE(kernels.size() == first.size());
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            CHECK(kernels[i].strategy == first[i].strategy);
            const std::string_view name = kernels[i].strategy;
            CHECK((emu::find_emu_kernel(name, false, SweepKernels::plain, v.name) == kernels[i].kernel));
            CHECK((emu::find_emu_kernel(name, true, SweepKernels::plain, v.name) == kernels[i].kernel_with_periods));
            CHECK((emu::find_emu_kernel(name, false, SweepKernels::finer, v.name) == kernels[i].kernel_finer));
            CHECK((emu::find_emu_kernel(name, true, SweepKernels::finer, v.name) ==
                   kernels[i].kernel_with_periods_finer));
            // Note [Kernels for a mark price]: every strategy has its own pair for a market with a mark.
            CHECK((emu::find_emu_kernel(name, false, SweepKernels::mark, v.name) == kernels[i].kernel_mark));
            CHECK((emu::find_emu_kernel(name, true, SweepKernels::mark, v.name) == kernels[i].kernel_with_periods_mark));
            CHECK((kernels[i].kernel_mark != kernels[i].kernel));
            CHECK((kernels[i].kernel_with_periods_mark != kernels[i].kernel_with_periods));
            // Note [Kernels for finer bars]: only a strategy that reads finer bars has kernels of its own for them.
            const StrategyBinding* binding = find_strategy_binding(kernels[i].strategy);
            REQUIRE(binding != nullptr);
            CHECK((kernels[i].kernel_finer != kernels[i].kernel) == binding->reads_finer_bars);
            CHECK((kernels[i].kernel_with_periods_finer != kernels[i].kernel_with_periods) == binding->reads_finer_bars);
            if (&v != &kernel_variants().front()) CHECK((kernels[i].kernel != first[i].kernel));
        }
    }
    CHECK(emu::emu_kernels("huge").empty());
}

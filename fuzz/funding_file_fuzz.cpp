// Fuzz target: a funding file (host/data/funding_history.h, Note [Funding
// history]). The loader takes a path, so each input is written to an
// in-memory file (memfd) and loaded through /proc/self/fd; a history that
// loads is then applied to a market of its first symbol and one it lacks
// (hourly bars over 2024-01-01 and -02, with a gap), whose funding is checked:
// every settlement of the covered symbol counted once (charged, before the
// first bar or after the last), one bar charging at most the settlements
// that fit into it at the rule's spacing, every rate finite, the other
// symbol's funding untouched. Any input may be refused with a DataError;
// anything else escaping, a crash, a leak, undefined behaviour or a broken
// check is a bug.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "host/data/data_error.h"
#include "host/data/funding_history.h"
#include "host/data/market_builder.h"

namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kStart = 1'704'067'200'000;  // 2024-01-01T00:00Z

int memory_file() {
    const int fd = memfd_create("btforge-fuzz-funding.csv", 0);
    if (fd < 0) {
        std::perror("memfd_create");
        std::abort();
    }
    return fd;
}

void check(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "funding file fuzz: %s\n", what);
    std::abort();
}

// The history's first symbol and one it lacks.
btforge::Market market_of(const btforge::FundingHistory& history) {
    std::vector<btforge::SymbolBars> symbols(2);
    symbols[0].symbol = history.symbols.front();
    symbols[1].symbol = "ZZZUSDT";
    while (std::find(history.symbols.begin(), history.symbols.end(), symbols[1].symbol) != history.symbols.end()) {
        symbols[1].symbol += "Z";
    }
    for (int h = 0; h < 48; ++h) {
        if (h >= 10 && h < 20) continue;  // a gap: several settlements in one bar
        for (auto& s : symbols) s.bars.push_back(btforge::Bar{kStart + h * kHour, 100, 101, 99, 100, 1, 0.0001});
    }
    return btforge::build_market(std::move(symbols));
}

void apply_and_check(const btforge::FundingHistory& history) {
    btforge::Market market = market_of(history);
    const btforge::Market before = market;
    const btforge::FundingHistoryUse use = btforge::apply_funding_history(market, history);
    check(use.symbols_covered == 1, "the history's first symbol is not covered");
    check(use.settlements_charged + use.before_first_bar + use.after_last_bar == history.settlements.front().size(),
          "a settlement is counted twice or not at all");
    std::size_t bars_charged = 0;
    for (int t = 0; t < market.n_bars(); ++t) {
        const std::size_t i = market.index(0, t);
        const std::int32_t events = market.funding_events[i];
        check(events >= 0 && std::isfinite(market.funding_rate[i]), "a bad funding entry");
        bars_charged += events != 0;
        // Note [Funding history]: one bar holds the settlements of its span at the rule's spacing.
        const auto bar = static_cast<std::size_t>(t);
        const std::int64_t span = t == 0 ? 0 : market.timestamp_ms[bar] - market.timestamp_ms[bar - 1];
        const double most = static_cast<double>(span / btforge::kMinSettlementSpacingMs + 1);
        check(events <= most && std::fabs(market.funding_rate[i]) <= most, "a bar charges more than its span holds");
        const std::size_t other = market.index(1, t);
        check(market.funding_events[other] == before.funding_events[other] &&
                  market.funding_rate[other] == before.funding_rate[other],
              "the other symbol's funding changed");
    }
    check(bars_charged == use.bars_charged, "bars charged miscounted");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const int fd = memory_file();
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
        std::perror("writing the memfd");
        std::abort();
    }
    btforge::FundingHistory history;
    try {
        history = btforge::load_funding_history(path, std::nullopt);
    } catch (const btforge::DataError&) {
        return 0;
    }
    apply_and_check(history);
    return 0;
}

// Host semantic check of the kx variants: every variant's kernel source,
// compiled as host C++ (emu shim, -ffp-contract=off), must produce Metrics rows
// byte-identical to V0 on a synthetic 4-symbol market.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include <string>
#include "kx_shim.h"
#include "generated/btforge_layout.h"
using btforge::device::SweepLaunch;
using btforge::device::Metrics;
#define KX_DECL(v) extern "C" void kx_sweep_##v(SweepLaunch);
KX_VARIANTS(KX_DECL)

static void run(void (*k)(SweepLaunch), SweepLaunch l) {
    blockDim = {128, 1, 1};
    unsigned blocks = (unsigned)((l.count + 127) / 128);
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < 128; ++t) { blockIdx = {b, 0, 0}; threadIdx = {t, 0, 0}; k(l); }
}

int main(int argc, char** argv) {
    const int S = argc > 1 ? std::atoi(argv[1]) : 4, N = argc > 2 ? std::atoi(argv[2]) : 3000;
    const unsigned long long C = argc > 3 ? std::atoll(argv[3]) : 2048;
    const double nan = std::nan("");
    std::mt19937_64 rng(7);
    std::normal_distribution<double> g(0.0, 1.0);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<long long> ts(N);
    for (int t = 0; t < N; ++t) ts[t] = 1700000000000LL + 3600000LL * t;
    std::vector<double> O(S * N), H(S * N), L(S * N), Cl(S * N), V(S * N), FR(S * N);
    std::vector<int> FE(S * N);
    std::vector<unsigned char> TR(S * N);
    for (int s = 0; s < S; ++s) {
        double px = 100.0 * (1 + s), last = nan;
        int first = s == 2 ? 200 : 0;  // symbol 2 starts late: NaN prices before
        for (int t = 0; t < N; ++t) {
            int i = s * N + t;
            bool has = t >= first && u(rng) > 0.03;
            if (!has) { O[i] = H[i] = L[i] = Cl[i] = last; V[i] = 0; TR[i] = 0; FE[i] = 0; FR[i] = 0; continue; }
            double o = px * (1 + 0.002 * g(rng)), c = o * (1 + 0.01 * g(rng));
            if (u(rng) < 0.02) c *= 1 + 0.05 * g(rng);  // jumps
            O[i] = o; Cl[i] = c; H[i] = std::fmax(o, c) * (1 + 0.004 * u(rng)); L[i] = std::fmin(o, c) * (1 - 0.004 * u(rng));
            V[i] = 1000 * u(rng); TR[i] = 1; FE[i] = (t % 8 == 0) ? 1 + (u(rng) < 0.1) : 0; FR[i] = 0.0001 * g(rng);
            px = c; last = c;
        }
    }
    // series: ema_fast[2], ema_slow[2], rsi, adx, atr, bb_upper, bb_lower, breadth
    std::vector<double> series;
    std::vector<long long> soff;
    auto add = [&](std::vector<double> v) { soff.push_back((long long)series.size()); series.insert(series.end(), v.begin(), v.end()); };
    auto ema = [&](double a, int warm) { std::vector<double> r(S * N);
        for (int s = 0; s < S; ++s) { double e = nan; int n = 0;
            for (int t = 0; t < N; ++t) { int i = s * N + t; double c = Cl[i];
                if (std::isnan(c)) { r[i] = nan; continue; }
                e = std::isnan(e) ? c : e + a * (c - e); ++n; r[i] = n < warm ? nan : e; } } return r; };
    auto noise = [&](double lo, double hi, int warm) { std::vector<double> r(S * N); double x = (lo + hi) / 2;
        for (int i = 0; i < S * N; ++i) { x += (hi - lo) * 0.08 * g(rng); x = std::fmin(hi, std::fmax(lo, x)); r[i] = (i % N) < warm ? nan : x; } return r; };
    std::vector<int> table;
    table.push_back(soff.size()); add(ema(0.3, 5)); add(ema(0.2, 8));
    table.push_back(soff.size()); add(ema(0.05, 20)); add(ema(0.03, 30));
    table.push_back(soff.size()); add(noise(5, 95, 14));
    table.push_back(soff.size()); add(noise(5, 60, 28));
    { std::vector<double> a(S * N); for (int i = 0; i < S * N; ++i) a[i] = (i % N) < 14 ? nan : (H[i] - L[i]) * 1.5 + 0.01 * (1 + i % 3);
      for (int i = 0; i < S * N; ++i) if (std::isnan(Cl[i])) a[i] = nan; table.push_back(soff.size()); add(a); }
    std::vector<double> mid = ema(0.1, 20), up(S * N), lo(S * N);
    for (int i = 0; i < S * N; ++i) { double w = Cl[i] * 0.01; up[i] = mid[i] + w; lo[i] = mid[i] - w; }
    table.push_back(soff.size()); add(up); table.push_back(soff.size()); add(lo);
    table.push_back(soff.size()); add(noise(0, 1, 10));
    // parameters (spec order) and their values
    std::vector<std::vector<double>> vals = {
        {5, 8}, {20, 30}, {14}, {14}, {14}, {20}, {2.0}, {10}, {0, 1}, {0, 1}, {70, 100}, {30, 0}, {0, 20},
        {0.0, 0.5}, {30, 45}, {70, 55}, {1.0, 2.5}, {1.0, 2.0}, {0.5, 1.0}, {3.0, 5.0}, {1.0, 0.5}, {0.0, 1.5},
        {0.01, 0.05}, {2, 10}, {1, 3}, {0, 10}, {0, 50}};
    int P = vals.size();
    std::vector<unsigned long long> radix(P), stride(P);
    std::vector<int> voff(P);
    std::vector<double> values;
    unsigned long long st = 1;
    for (int p = P - 1; p >= 0; --p) { radix[p] = vals[p].size(); stride[p] = st; st *= radix[p]; }
    for (int p = 0; p < P; ++p) { voff[p] = values.size(); values.insert(values.end(), vals[p].begin(), vals[p].end()); }
    std::vector<unsigned long long> ids(C);
    for (auto& id : ids) id = rng() % st;
    SweepLaunch l{};
    l.market.n_symbols = S; l.market.n_bars = N; l.market.timestamp_ms = ts.data();
    l.market.open = O.data(); l.market.high = H.data(); l.market.low = L.data(); l.market.close = Cl.data();
    l.market.volume = V.data(); l.market.funding_rate = FR.data(); l.market.funding_events = FE.data(); l.market.tradable = TR.data();
    for (int s = 0; s < 16; ++s) { l.market.qty_step[s] = 0.001; l.market.min_qty[s] = 0.002; l.market.price_tick[s] = 0.01; }
    l.account = {10000.0, 0.0002, 0.0005, 0.0003, 8760.0};
    l.radix = radix.data(); l.stride = stride.data(); l.value_offset = voff.data(); l.values = values.data();
    l.series = series.data(); l.series_offset = soff.data(); l.series_table = table.data();
    l.combination_ids = ids.data(); l.count = C;
    size_t rows_alloc = (C + 127) / 128 * 128;
    std::vector<Metrics> ref(rows_alloc);
    l.rows = ref.data();
    void (*ks[])(SweepLaunch) = {
#define KX_PTR(v) kx_sweep_##v,
        KX_VARIANTS(KX_PTR)};
    const char* names[] = {
#define KX_NAME(v) #v,
        KX_VARIANTS(KX_NAME)};
    int nk = sizeof(ks) / sizeof(ks[0]);
    run(ks[0], l);
    long trades = 0; for (unsigned long long c = 0; c < C; ++c) trades += ref[c].n_trades;
    std::printf("market %d symbols x %d bars, %llu combinations, %ld round trips in %s\n", S, N, C, trades, names[0]);
    int bad = 0;
    for (int k = 1; k < nk; ++k) {
        std::vector<Metrics> got(rows_alloc);
        l.rows = got.data();
        run(ks[k], l);
        unsigned long long diff = 0;
        for (unsigned long long c = 0; c < C; ++c) diff += std::memcmp(&got[c], &ref[c], sizeof(Metrics)) != 0;
        std::printf("%-8s vs %s: %llu of %llu rows differ -> %s\n", names[k], names[0], diff, C, diff ? "FAIL" : "identical");
        bad += diff != 0;
    }
    return bad ? 1 : 0;
}

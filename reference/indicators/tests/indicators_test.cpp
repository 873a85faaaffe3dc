// Hand-worked cases, one table per indicator: the expected values are worked
// out in the comments, then the edge cases (NaN before the lookback, all NaN
// when n <= lookback, flat input and TA-Lib's zero rules, the smallest period
// TA-Lib accepts).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "reference/indicators/adx.h"
#include "reference/indicators/atr.h"
#include "reference/indicators/bbands.h"
#include "reference/indicators/breadth.h"
#include "reference/indicators/cci.h"
#include "reference/indicators/ema.h"
#include "reference/indicators/kama.h"
#include "reference/indicators/macd.h"
#include "reference/indicators/max.h"
#include "reference/indicators/mfi.h"
#include "reference/indicators/min.h"
#include "reference/indicators/minus_di.h"
#include "reference/indicators/obv.h"
#include "reference/indicators/plus_di.h"
#include "reference/indicators/roc.h"
#include "reference/indicators/rsi.h"
#include "reference/indicators/sma.h"
#include "reference/indicators/stoch.h"
#include "reference/indicators/willr.h"
#include "reference/indicators/wma.h"

namespace {

using V = std::vector<double>;
const double NaN = std::nan("");

void expect_series(const V& got, const V& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t t = 0; t < got.size(); ++t) {
        CAPTURE(t);
        if (std::isnan(expected[t])) {
            CHECK(std::isnan(got[t]));
        } else {
            CHECK(got[t] == doctest::Approx(expected[t]).epsilon(1e-12));
        }
    }
}

bool all_nan(const V& v) {
    for (double x : v) {
        if (!std::isnan(x)) return false;
    }
    return true;
}

// Runs a single-input, single-output kernel.
template <class F>
V run1(F f, const V& in, int period) {
    V out(in.size(), 12345.0);
    f(in.data(), static_cast<int>(in.size()), period, out.data());
    return out;
}

struct Bars {
    V high, low, close, volume;
    int n() const { return static_cast<int>(close.size()); }
};

template <class F>
V run_hlc(F f, const Bars& b, int period) {
    V out(b.close.size(), 12345.0);
    f(b.high.data(), b.low.data(), b.close.data(), b.n(), period, out.data());
    return out;
}

Bars flat_bars(int n, double price) { return {V(n, price), V(n, price), V(n, price), V(n, 100.0)}; }

// Rising bars: (h, l, c) = (10,8,9) (11,9,10) (12,10,11) (15,11,14).
const Bars kRising = {{10, 11, 12, 15}, {8, 9, 10, 11}, {9, 10, 11, 14}, {1, 1, 1, 1}};
// Falling bars: (10,8,9) (9,7,8) (8,6,7) (7,5,6), then an up bar (8,6,7).
const Bars kFalling = {{10, 9, 8, 7, 8}, {8, 7, 6, 5, 6}, {9, 8, 7, 6, 7}, {1, 1, 1, 1, 1}};

}  // namespace

TEST_CASE("SMA") {
    // SMA(3) of 1..5: (1+2+3)/3 = 2, then 3, 4.
    expect_series(run1(btforge::sma_compute, {1, 2, 3, 4, 5}, 3), {NaN, NaN, 2, 3, 4});
    CHECK(btforge::sma_lookback(3) == 2);
    expect_series(run1(btforge::sma_compute, {7, 8}, 1), {7, 8});
    CHECK(all_nan(run1(btforge::sma_compute, {1, 2}, 3)));
    expect_series(run1(btforge::sma_compute, V(4, 2.5), 2), {NaN, 2.5, 2.5, 2.5});
}

TEST_CASE("EMA") {
    // EMA(3): k = 0.5, seed mean(1,2,3) = 2 at bar 2; (4-2)*.5+2 = 3; (5-3)*.5+3 = 4.
    expect_series(run1(btforge::ema_compute, {1, 2, 3, 4, 5}, 3), {NaN, NaN, 2, 3, 4});
    // EMA(2): k = 2/3, seed mean(2,4) = 3 at bar 1; (6-3)*2/3+3 = 5.
    expect_series(run1(btforge::ema_compute, {2, 4, 6}, 2), {NaN, 3, 5});
    // Period 1 (k = 1) reproduces the input.
    expect_series(run1(btforge::ema_compute, {3, 1, 4}, 1), {3, 1, 4});
    CHECK(all_nan(run1(btforge::ema_compute, {1, 2, 3}, 4)));
    CHECK(all_nan(run1(btforge::ema_compute, {}, 4)));
}

TEST_CASE("WMA") {
    // WMA(3), divider 6: (1*1+2*2+3*3)/6 = 14/6, (2*1+3*2+4*3)/6 = 20/6.
    expect_series(run1(btforge::wma_compute, {1, 2, 3, 4}, 3), {NaN, NaN, 14.0 / 6, 20.0 / 6});
    expect_series(run1(btforge::wma_compute, {5, 6}, 1), {5, 6});
    CHECK(all_nan(run1(btforge::wma_compute, {1, 2}, 3)));
}

TEST_CASE("KAMA") {
    // KAMA(2) of 1,2,3,5: bar 2: sum|d| = 2, change 3-1 = 2 <= ... so ER = 1, sc = (2/3)^2;
    // prev = x[1] = 2 -> (3-2)*4/9 + 2. Bar 3: sum|d| = 1+2 = 3, change 5-2 = 3 -> ER 1.
    const double sc = (2.0 / 3.0) * (2.0 / 3.0);
    const double k2 = (3 - 2) * sc + 2;
    const double k3 = (5 - k2) * sc + k2;
    expect_series(run1(btforge::kama_compute, {1, 2, 3, 5}, 2), {NaN, NaN, k2, k3});
    CHECK(btforge::kama_lookback(2) == 2);
    // ER = |change| / sum|d| when the path is longer than the move: 1,3,2 with
    // period 2 -> ER = 1/3, sc = (1/3*(2/3-2/31)+2/31)^2, prev = 3.
    const double er = 1.0 / 3.0;
    const double sc2 = (er * (2.0 / 3.0 - 2.0 / 31.0) + 2.0 / 31.0) * (er * (2.0 / 3.0 - 2.0 / 31.0) + 2.0 / 31.0);
    expect_series(run1(btforge::kama_compute, {1, 3, 2}, 2), {NaN, NaN, (2 - 3) * sc2 + 3});
    // Period 1 is a copy (lookback 0); flat input stays flat.
    CHECK(btforge::kama_lookback(1) == 0);
    expect_series(run1(btforge::kama_compute, {4, 5}, 1), {4, 5});
    expect_series(run1(btforge::kama_compute, V(5, 7.0), 2), {NaN, NaN, 7, 7, 7});
    CHECK(all_nan(run1(btforge::kama_compute, {1, 2}, 2)));
}

TEST_CASE("RSI") {
    // RSI(2) of 1,2,1,2,3: changes +1,-1 -> g = l = 0.5 -> 50; +1: g = (0.5*1+1)/2 = 0.75,
    // l = 0.25 -> 75; +1: g = 0.875, l = 0.125 -> 87.5.
    expect_series(run1(btforge::rsi_compute, {1, 2, 1, 2, 3}, 2), {NaN, NaN, 50, 75, 87.5});
    // Flat: g + l == 0 -> 0 (TA-Lib's zero rule).
    expect_series(run1(btforge::rsi_compute, V(4, 3.0), 2), {NaN, NaN, 0, 0});
    // Only gains -> 100.
    expect_series(run1(btforge::rsi_compute, {1, 2, 3}, 2), {NaN, NaN, 100});
    CHECK(all_nan(run1(btforge::rsi_compute, {1, 2}, 2)));
}

TEST_CASE("MACD") {
    // MACD(2,3,2) of 1..6: slow EMA(3) seeded by mean(1,2,3) = 2 at bar 2, then 3,4,5;
    // fast EMA(2) seeded on the same bar by mean(2,3) = 2.5, then 3.5,4.5,5.5;
    // macd = 0.5 from bar 2; signal EMA(2) seeded by mean(0.5,0.5) at bar 3.
    const V in = {1, 2, 3, 4, 5, 6};
    V macd(6), signal(6), hist(6);
    btforge::macd_compute(in.data(), 6, 2, 3, 2, macd.data(), signal.data(), hist.data());
    CHECK(btforge::macd_lookback(2, 3, 2) == 3);
    expect_series(macd, {NaN, NaN, NaN, 0.5, 0.5, 0.5});
    expect_series(signal, {NaN, NaN, NaN, 0.5, 0.5, 0.5});
    expect_series(hist, {NaN, NaN, NaN, 0, 0, 0});
    // fast > slow is swapped, as TA-Lib does.
    V macd2(6), signal2(6), hist2(6);
    btforge::macd_compute(in.data(), 6, 3, 2, 2, macd2.data(), signal2.data(), hist2.data());
    expect_series(macd2, macd);
    // Signal period 1: signal = macd from bar slow-1.
    V m1(6), s1(6), h1(6);
    btforge::macd_compute(in.data(), 6, 2, 3, 1, m1.data(), s1.data(), h1.data());
    expect_series(s1, {NaN, NaN, 0.5, 0.5, 0.5, 0.5});
    // n <= lookback: all NaN.
    btforge::macd_compute(in.data(), 3, 2, 3, 2, macd.data(), signal.data(), hist.data());
    CHECK(std::isnan(macd[2]));
    CHECK(std::isnan(signal[0]));
    CHECK(std::isnan(hist[2]));
}

TEST_CASE("BBANDS") {
    // BBANDS(2, 2) of 1,3,3: bar 1: mid 2, population sd 1 -> 4 / 2 / 0;
    // bar 2: mid 3, sd 0 -> band = mid.
    const V in = {1, 3, 3};
    V up(3), mid(3), lo(3);
    btforge::bbands_compute(in.data(), 3, 2, 2.0, up.data(), mid.data(), lo.data());
    expect_series(up, {NaN, 4, 3});
    expect_series(mid, {NaN, 2, 3});
    expect_series(lo, {NaN, 0, 3});
    // Flat: sd 0, every band equals the mean.
    const V flat(5, 10.1);
    V fu(5), fm(5), fl(5);
    btforge::bbands_compute(flat.data(), 5, 3, 2.0, fu.data(), fm.data(), fl.data());
    expect_series(fu, fm);
    expect_series(fl, fm);
    CHECK(fm[4] == doctest::Approx(10.1).epsilon(1e-15));
    btforge::bbands_compute(in.data(), 2, 3, 2.0, up.data(), mid.data(), lo.data());
    CHECK(std::isnan(up[0]));
    CHECK(std::isnan(mid[1]));
}

TEST_CASE("ATR") {
    // TR1 = max(11-9, |11-9|, |9-9|) = 2, TR2 = 2, TR3 = max(4, |15-11|, |11-11|) = 4.
    // ATR(2) at bar 2 = (2+2)/2 = 2; bar 3 = (2*1 + 4)/2 = 3.
    expect_series(run_hlc(btforge::atr_compute, kRising, 2), {NaN, NaN, 2, 3});
    // Period 1: the true range itself from bar 1.
    expect_series(run_hlc(btforge::atr_compute, kRising, 1), {NaN, 2, 2, 4});
    // A gap: TR uses the previous close. Bars (10,9,9.5), (15,14,14.5): TR = 15-9.5 = 5.5.
    const Bars gap = {{10, 15}, {9, 14}, {9.5, 14.5}, {1, 1}};
    expect_series(run_hlc(btforge::atr_compute, gap, 1), {NaN, 5.5});
    CHECK(all_nan(run_hlc(btforge::atr_compute, kRising, 4)));
}

TEST_CASE("PLUS_DI and MINUS_DI") {
    // Rising: +DM = 1,1,3 on bars 1..3, TR = 2,2,4. PLUS_DI(2): sums over bar 1 are
    // 1 and 2; bar 2: 1-0.5+1 = 1.5 and 2-1+2 = 3 -> 50; bar 3: 1.5-0.75+3 = 3.75,
    // 3-1.5+4 = 5.5 -> 100*3.75/5.5.
    expect_series(run_hlc(btforge::plus_di_compute, kRising, 2), {NaN, NaN, 50, 100 * (3.75 / 5.5)});
    expect_series(run_hlc(btforge::minus_di_compute, kRising, 2), {NaN, NaN, 0, 0});
    // Falling: -DM = 1 per bar, TR = 2 -> MINUS_DI(2) = 50 at bar 2.
    const V falling_minus = run_hlc(btforge::minus_di_compute, kFalling, 2);
    CHECK(falling_minus[2] == 50);
    // Period 1: DM/TR of the bar, NOT times 100 (TA-Lib's special case): 1/2, 1/2, 3/4.
    expect_series(run_hlc(btforge::plus_di_compute, kRising, 1), {NaN, 0.5, 0.5, 0.75});
    // Flat: TR sum is exactly 0 -> 0.
    expect_series(run_hlc(btforge::plus_di_compute, flat_bars(4, 5), 2), {NaN, NaN, 0, 0});
    expect_series(run_hlc(btforge::minus_di_compute, flat_bars(4, 5), 1), {NaN, 0, 0, 0});
}

TEST_CASE("ADX") {
    // Falling bars, ADX(2), lookback 3: sums over bar 1: -DM 1, TR 2. Bar 2: -DM 1.5,
    // TR 3 -> -DI 50, +DI 0, DX 100. Bar 3: -DM 1.75, TR 3.5 -> DX 100; ADX = 200/2.
    // Bar 4 (up bar, +DM 1, TR 2): -DM 0.875, +DM 1, TR 3.75 -> DX = 100*|dm-dp|/(dm+dp);
    // ADX = (100*1 + DX)/2.
    const double minus_di = 100 * (0.875 / 3.75);
    const double plus_di = 100 * (1 / 3.75);
    const double dx = 100 * (std::fabs(minus_di - plus_di) / (minus_di + plus_di));
    expect_series(run_hlc(btforge::adx_compute, kFalling, 2), {NaN, NaN, NaN, 100, (100 + dx) / 2});
    CHECK(btforge::adx_lookback(14) == 27);
    // Flat: no DX exists (TR is 0): ADX = 0/period and holds.
    expect_series(run_hlc(btforge::adx_compute, flat_bars(5, 5), 2), {NaN, NaN, NaN, 0, 0});
    CHECK(all_nan(run_hlc(btforge::adx_compute, kRising, 3)));
}

TEST_CASE("STOCH") {
    // Bars (10,8,9) (12,9,11) (11,10,10). fastK(2): bar 1: HH 12, LL 8 -> (11-8)/4*100 = 75;
    // bar 2: HH 12, LL 9 -> (10-9)/3*100.
    const Bars b = {{10, 12, 11}, {8, 9, 10}, {9, 11, 10}, {1, 1, 1}};
    const double k2 = (1.0 / 3.0) * 100.0;
    V sk(3), sd(3);
    btforge::stoch_compute(b.high.data(), b.low.data(), b.close.data(), 3, 2, 1, 1, sk.data(), sd.data());
    expect_series(sk, {NaN, 75, k2});
    expect_series(sd, {NaN, 75, k2});
    // STOCH(2,2,1): slowK = SMA(2) of fastK = (75+k2)/2 at bar 2.
    btforge::stoch_compute(b.high.data(), b.low.data(), b.close.data(), 3, 2, 2, 1, sk.data(), sd.data());
    expect_series(sk, {NaN, NaN, (75 + k2) / 2});
    expect_series(sd, {NaN, NaN, (75 + k2) / 2});
    CHECK(btforge::stoch_lookback(14, 3, 3) == 17);
    // STOCH(1,1,1): fastK of the bar itself, lookback 0.
    btforge::stoch_compute(b.high.data(), b.low.data(), b.close.data(), 3, 1, 1, 1, sk.data(), sd.data());
    expect_series(sk, {50, 200.0 / 3.0, 0});
    // Flat: zero range -> 0.
    const Bars flat = flat_bars(4, 3);
    V fk(4), fd(4);
    btforge::stoch_compute(flat.high.data(), flat.low.data(), flat.close.data(), 4, 2, 2, 2, fk.data(), fd.data());
    expect_series(fk, {NaN, NaN, NaN, 0});
    expect_series(fd, {NaN, NaN, NaN, 0});
    btforge::stoch_compute(flat.high.data(), flat.low.data(), flat.close.data(), 3, 2, 2, 2, fk.data(), fd.data());
    CHECK(std::isnan(fk[2]));
}

TEST_CASE("CCI") {
    // h = l = c: TP 1,3,2. CCI(2): bar 1: avg 2, mean dev 1, TP-avg = 1 -> 1/(0.015*1);
    // bar 2: avg 2.5, mean dev 0.5, TP-avg = -0.5 -> -0.5/(0.015*0.5).
    const Bars b = {{1, 3, 2}, {1, 3, 2}, {1, 3, 2}, {1, 1, 1}};
    expect_series(run_hlc(btforge::cci_compute, b, 2), {NaN, 1 / 0.015, -1 / 0.015});
    // Flat: both terms 0 -> 0.
    expect_series(run_hlc(btforge::cci_compute, flat_bars(3, 9.9), 2), {NaN, 0, 0});
    // Current TP equal to the window mean (1,3,2: mean 2) -> 0.
    const Bars sym = {{1, 3, 2}, {1, 3, 2}, {1, 3, 2}, {1, 1, 1}};
    V out = run_hlc(btforge::cci_compute, sym, 3);
    CHECK(out[2] == 0);
    CHECK(all_nan(run_hlc(btforge::cci_compute, sym, 4)));
}

TEST_CASE("MFI") {
    // h = l = c = 1,2,1,3, volume 10: flows bar 1 +20, bar 2 -10, bar 3 +30.
    // MFI(2) at bar 2 = 100*20/30; bar 3 (bar 1 leaves) = 100*30/40 = 75.
    const Bars b = {{1, 2, 1, 3}, {1, 2, 1, 3}, {1, 2, 1, 3}, {10, 10, 10, 10}};
    V out(4);
    btforge::mfi_compute(b.high.data(), b.low.data(), b.close.data(), b.volume.data(), 4, 2, out.data());
    expect_series(out, {NaN, NaN, 100 * (20.0 / 30.0), 75});
    // Flat: no money flow -> 0.
    const Bars flat = flat_bars(4, 2);
    btforge::mfi_compute(flat.high.data(), flat.low.data(), flat.close.data(), flat.volume.data(), 4, 2, out.data());
    expect_series(out, {NaN, NaN, 0, 0});
    btforge::mfi_compute(b.high.data(), b.low.data(), b.close.data(), b.volume.data(), 2, 2, out.data());
    CHECK(std::isnan(out[0]));
    CHECK(std::isnan(out[1]));
}

TEST_CASE("OBV") {
    // Seed volume[0] = 5; up +3 -> 8; equal close -> 8; down -2 -> 6.
    const V close = {1, 2, 2, 1};
    const V volume = {5, 3, 4, 2};
    V out(4);
    btforge::obv_compute(close.data(), volume.data(), 4, out.data());
    expect_series(out, {5, 8, 8, 6});
    CHECK(btforge::obv_lookback() == 0);
}

TEST_CASE("WILLR") {
    // Bars (10,8,9) (12,9,11) (11,10,10). WILLR(2): bar 1: (12-11)/(12-8) * -100 = -25;
    // bar 2: (12-10)/(12-9) * -100.
    const Bars b = {{10, 12, 11}, {8, 9, 10}, {9, 11, 10}, {1, 1, 1}};
    expect_series(run_hlc(btforge::willr_compute, b, 2), {NaN, -25, (2.0 / 3.0) * -100.0});
    // Flat: zero range -> 0.
    expect_series(run_hlc(btforge::willr_compute, flat_bars(3, 4), 2), {NaN, 0, 0});
    CHECK(all_nan(run_hlc(btforge::willr_compute, b, 4)));
}

TEST_CASE("ROC") {
    // ROC(1) of 2,3,0,5: (3/2-1)*100 = 50; (0/3-1)*100 = -100; base 0 -> 0.
    expect_series(run1(btforge::roc_compute, {2, 3, 0, 5}, 1), {NaN, 50, -100, 0});
    // ROC(2) of 4,1,5: (5/4-1)*100 = 25.
    expect_series(run1(btforge::roc_compute, {4, 1, 5}, 2), {NaN, NaN, 25});
    expect_series(run1(btforge::roc_compute, V(3, 8.0), 1), {NaN, 0, 0});
    CHECK(all_nan(run1(btforge::roc_compute, {1, 2}, 2)));
}

TEST_CASE("MAX and MIN") {
    // Window of 2 including the current bar.
    expect_series(run1(btforge::max_compute, {1, 3, 2, 2, 0}, 2), {NaN, 3, 3, 2, 2});
    expect_series(run1(btforge::min_compute, {1, 3, 2, 2, 0}, 2), {NaN, 1, 2, 2, 0});
    // Window of 3: the extreme leaves the window and is rescanned.
    expect_series(run1(btforge::max_compute, {5, 1, 2, 3, 1}, 3), {NaN, NaN, 5, 3, 3});
    expect_series(run1(btforge::min_compute, {0, 4, 2, 3, 5}, 3), {NaN, NaN, 0, 2, 2});
    CHECK(all_nan(run1(btforge::max_compute, {1}, 2)));
}

TEST_CASE("BREADTH") {
    // 3 symbols, 3 bars, symbol-major. EMA values passed in directly.
    // bar 0: no EMA anywhere -> NaN.
    // bar 1: S0 close 2 > EMA 1.5 (above), S1 4 < 4.5, S2 not tradable -> 1/2.
    // bar 2: S0 3 > 2.5, S1 3 < 3.5, S2 12 > 11 -> 2/3.
    const std::vector<double> close = {1, 2, 3, 5, 4, 3, 10, 10, 12};
    const std::vector<double> ema = {NaN, 1.5, 2.5, NaN, 4.5, 3.5, NaN, 10, 11};
    const std::vector<std::uint8_t> tradable = {1, 1, 1, 1, 1, 1, 1, 0, 1};
    btforge::MarketView m{};
    m.n_symbols = 3;
    m.n_bars = 3;
    m.bar_stride = 3;
    m.close = close.data();
    m.tradable = tradable.data();
    std::vector<double> out(3);
    btforge::breadth_compute(m, ema.data(), out.data());
    expect_series(out, {NaN, 0.5, 2.0 / 3.0});
    CHECK(btforge::breadth_lookback(20) == 19);
}

// ---- TA-Lib 0.8.1's arithmetic (issue 29): its fused multiply-adds, WMA's
// re-anchoring, the zero tests at every price scale, its edge rules.

namespace {

// Deterministic doubles over many binades: significand from a 64-bit LCG,
// exponent in [-exp_range, exp_range], random sign.
struct RandomDoubles {
    std::uint64_t state;
    std::uint64_t next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state;
    }
    double operator()(int exp_range) {
        const double significand = 1.0 + static_cast<double>(next() >> 12) / 4503599627370496.0;  // [1, 2)
        const int exponent = static_cast<int>(next() % static_cast<std::uint64_t>(2 * exp_range + 1)) - exp_range;
        const double x = std::ldexp(significand, exponent);
        return (next() & 1) != 0 ? -x : x;
    }
};

bool identical(double a, double b) { return a == b && std::signbit(a) == std::signbit(b); }

bool same_value(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

TEST_CASE("ta_neighbour_double is the next double up or down") {
    RandomDoubles random{1};
    for (int i = 0; i < 200000; ++i) {
        const double x = random(300);
        CAPTURE(x);
        REQUIRE(btforge::ta_neighbour_double(x, 1.0) == std::nextafter(x, INFINITY));
        REQUIRE(btforge::ta_neighbour_double(x, -1.0) == std::nextafter(x, -INFINITY));
    }
    // Powers of two (the binade edges, where the spacing below is half the
    // spacing above) and the largest significand.
    for (int e = -900; e <= 900; e += 7) {
        for (double x : {std::ldexp(1.0, e), std::ldexp(-1.0, e), std::ldexp(2.0 - 2.220446049250313e-16, e)}) {
            CAPTURE(x);
            CHECK(btforge::ta_neighbour_double(x, 1.0) == std::nextafter(x, INFINITY));
            CHECK(btforge::ta_neighbour_double(x, -1.0) == std::nextafter(x, -INFINITY));
        }
    }
}

TEST_CASE("ta_fma is the correctly rounded a*b + c, as std::fma") {
    // Note [TA-Lib's fused multiply-adds]: compared with the C library's fma
    // (correctly rounded by the standard) bit for bit.
    RandomDoubles random{2};
    long checked = 0;
    for (int i = 0; i < 300000; ++i) {
        const double a = random(60);
        const double b = random(60);
        // c at the product's scale (so the sum cancels or ties often), near
        // it, or far below and above it.
        const double product = a * b;
        const double c = i % 4 == 0   ? -product
                         : i % 4 == 1 ? -product * (1.0 + std::ldexp(static_cast<double>(random.next() % 64), -52))
                         : i % 4 == 2 ? random(60)
                                      : product * std::ldexp(1.0, static_cast<int>(random.next() % 120) - 60);
        const double got = btforge::ta_fma(a, b, c);
        const double want = std::fma(a, b, c);
        if (!(got == want || (got == 0.0 && want == 0.0))) {
            FAIL_CHECK("ta_fma(" << a << ", " << b << ", " << c << ") = " << got << ", fma gives " << want);
            break;
        }
        ++checked;
    }
    CHECK(checked == 300000);
    // Ties: a*b + c exactly halfway between two doubles, and a hair off it,
    // where rounding twice goes the wrong way.
    const double u = 1.1102230246251565e-16;  // 2^-53
    struct Case {
        double a, b, c;
    };
    const Case ties[] = {
        {1.0 + 134217728.0 * 2 * u, 1.0 - 134217728.0 * 2 * u, u + u / 2},  // (1 - 2^-54) + 3*2^-54: 1 + 2^-53, a tie
        {1.0 + 2 * u, 1.0 + 2 * u, -2 * u},                                     // 1 + 2^-104: just above 1
        {1.0 + 2 * u, 1.0 - 2 * u, u},                                          // 1 + 2^-53 - 2^-104: just below a tie
        {3.0, 1.0 / 3.0, -1.0},                                                 // the residue of 1/3
        {0.1, 10.0, -1.0},
        {1e16, 1e16 + 2, -1e32},
        {0.0, 5.0, -7.25},
        {2.0, 3.0, 0.0},
    };
    for (const Case& t : ties) {
        CAPTURE(t.a);
        CAPTURE(t.b);
        CAPTURE(t.c);
        CHECK(identical(btforge::ta_fma(t.a, t.b, t.c), std::fma(t.a, t.b, t.c)) == true);
    }
}

TEST_CASE("EMA and a MACD signal of period 1 are copies of their input") {
    // TA-Lib 0.8.1's explicit period-1 copy: (x - prev) * 1 + prev need not
    // give x back ((1e-12 - 3) + 3 rounds to 1.000088900582341e-12).
    expect_series(run1(btforge::ema_compute, {3.0, 1e-12, 5.0}, 1), {3.0, 1e-12, 5.0});
    CHECK(run1(btforge::ema_compute, {3.0, 1e-12}, 1)[1] == 1e-12);
    const V in = {1, 2, 4, 1e-12, 3, 2e-12};
    V macd(6), signal(6), hist(6);
    btforge::macd_compute(in.data(), 6, 2, 3, 1, macd.data(), signal.data(), hist.data());
    for (int t = 2; t < 6; ++t) {
        CAPTURE(t);
        CHECK(identical(signal[t], macd[t]));
        CHECK(hist[t] == 0.0);
    }
}

TEST_CASE("WMA re-anchors its running sums every 8*period bars") {
    // Note [WMA re-anchoring]. WMA(3) of 123456789.123, then 0.1 forever:
    // once the large value has left the window (bar 3) the WMA is 0.1, but
    // the running sums keep the rounding of the large value and add one each
    // bar: the drift grows linearly, 6.5e-7 relative by bar 24. Those are
    // TA-Lib's values too, up to its first re-anchoring on output bar
    // 8*3 - 1 = 23, i.e. bar 25; from there on every value is the window's
    // own, (0.1*1 + 0.1*2 + 0.1*3) / 6. The literals are TA-Lib 0.8.1's.
    V in(60, 0.1);
    in[0] = 123456789.123;
    const V out = run1(btforge::wma_compute, in, 3);
    CHECK(out[2] == 20576131.603833333);
    CHECK(out[3] == 0.1000000019868215);
    CHECK(out[24] == 0.10000006457169867);
    const double window = (0.1 * 1.0 + 0.1 * 2.0 + 0.1 * 3.0) / 6.0;
    CHECK(window == 0.10000000000000002);
    for (int t = 25; t < 60; ++t) {
        CAPTURE(t);
        CHECK(out[t] == window);
    }
    // The divider in double: period*(period+1) overflows an int from 46341.
    const V flat(46342, 1.25);
    const V big = run1(btforge::wma_compute, flat, 46341);
    CHECK(std::isnan(big[46339]));
    CHECK(big[46340] == 1.25);
    CHECK(big[46341] == 1.25);
}

TEST_CASE("KAMA's efficiency ratio is at most 1 on a fall as on a rise") {
    // A sliding sum of |changes| that ended a bit below the move it spans:
    // 347.4599999999999 against a fall of 347.46000000000004 gives ER 1, as
    // a sum of 0 or a rise larger than the sum does (TA-Lib 0.8.1).
    const double er_one = btforge::kama_smoothing(0.0, 0.0);
    CHECK(btforge::kama_smoothing(347.4599999999999, -347.46000000000004) == er_one);
    CHECK(btforge::kama_smoothing(347.4599999999999, 347.46000000000004) == er_one);
    CHECK(btforge::kama_smoothing(-1e-30, -2.0) == er_one);
    CHECK(btforge::kama_smoothing(4.0, -2.0) < er_one);
    // The monthly BTC/USD closes where it happens (backtesting.py's data),
    // against TA-Lib 0.8.1's KAMA(2).
    const V out = run1(btforge::kama_compute, {203.74, 1110.09, 734.33, 801.46, 575.5, 454.0}, 2);
    CHECK(out[2] == 1073.1097666035557);
    CHECK(out[5] == 725.7537487514255);
}

TEST_CASE("ADX, DI and RSI are the same at a quote of 1e-12 as at 1") {
    // Bars near 1 with ranges of 0.002, falling, then an up bar; scaled by
    // 2^-40 (about 9.1e-13, an exact scaling) the true ranges are about
    // 1.8e-15, so the Wilder sum of TR stays below the fixed 1e-14 band of
    // TA_IS_ZERO: only an exact test gives the unscaled index (Note [ADX zero
    // tests]).
    Bars quote = {{1.001, 1.000, 0.999, 0.998, 0.999}, {0.999, 0.998, 0.997, 0.996, 0.997},
                  {1.000, 0.999, 0.998, 0.997, 0.998}, {1, 1, 1, 1, 1}};
    Bars tiny = quote;
    for (V* column : {&tiny.high, &tiny.low, &tiny.close})
        for (double& x : *column) x = std::ldexp(x, -40);
    const V adx = run_hlc(btforge::adx_compute, quote, 2);
    CHECK(adx[3] == doctest::Approx(100.0).epsilon(1e-12));
    const V adx_tiny = run_hlc(btforge::adx_compute, tiny, 2);
    const V plus = run_hlc(btforge::plus_di_compute, quote, 2);
    const V plus_tiny = run_hlc(btforge::plus_di_compute, tiny, 2);
    const V minus = run_hlc(btforge::minus_di_compute, quote, 2);
    const V minus_tiny = run_hlc(btforge::minus_di_compute, tiny, 2);
    for (int t = 0; t < 5; ++t) {
        CAPTURE(t);
        CHECK(same_value(adx_tiny[t], adx[t]));
        CHECK(same_value(plus_tiny[t], plus[t]));
        CHECK(same_value(minus_tiny[t], minus[t]));
    }
    const V rsi = run1(btforge::rsi_compute, quote.close, 2);
    const V rsi_tiny = run1(btforge::rsi_compute, tiny.close, 2);
    CHECK(rsi_tiny[4] == rsi[4]);
}

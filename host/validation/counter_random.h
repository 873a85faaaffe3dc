#pragma once

#include <cstdint>

namespace btforge {

// Note [Counter-based draws]
// The validation's random draws (the stationary bootstrap's, the effective
// trials' sample and seeds) are functions of a counter, not a stream: the
// splitmix64 finalizer of seed_key + (counter + 1) * golden, so any draw can
// be made on its own, on any thread, and a result does not depend on which
// thread drew what. A draw's 53 high bits make a uniform in [0, 1); its high
// product with n an index in [0, n).

inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

inline std::uint64_t splitmix64_finalize(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

inline std::uint64_t counter_draw(std::uint64_t seed_key, std::uint64_t counter) {
    return splitmix64_finalize(seed_key + (counter + 1) * kGoldenGamma);
}

inline double uniform_of_draw(std::uint64_t draw) { return static_cast<double>(draw >> 11) * 0x1p-53; }

// The high 64 bits of a * b (a device's __umul64hi).
inline std::uint64_t high_product(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t a_lo = a & 0xFFFFFFFFull, a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xFFFFFFFFull, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo;
    const std::uint64_t hi_lo = a_hi * b_lo;
    const std::uint64_t lo_hi = a_lo * b_hi;
    const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFull) + lo_hi;
    return a_hi * b_hi + (hi_lo >> 32) + (middle >> 32);
}

}  // namespace btforge

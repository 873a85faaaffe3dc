#pragma once

#include <array>
#include <cstdint>

namespace btforge {

// Note [Random combinations without materializing]
// A random sweep must visit `count` distinct combinations drawn uniformly
// from a space that may hold up to 2^63 of them, so neither the space nor a
// list of drawn ids may be stored, and the i-th draw must be computable on
// its own (any thread, any chunk, in any order). A seeded pseudo-random
// permutation P of [0, n) does all that: ordinal i maps to combination P(i),
// and the first `count` ordinals are distinct because P is a bijection.
//
// P is a balanced 4-round Feistel network on b-bit words, b the smallest even
// number (at least 2) with 2^b >= n, so both halves have b/2 bits and
// 2^b < 4n. A Feistel network is a bijection whatever its round function,
// which here is a splitmix64 finalizer of (half ^ round key); the four round
// keys are the first outputs of splitmix64 seeded with the user's seed. Words
// that land outside [0, n) are pushed through the network again ("cycle
// walking"): following the cycle of a permutation of [0, 2^b) from a point
// inside [0, n) must come back inside, so the restriction stays a bijection
// of [0, n), and since 2^b < 4n it takes fewer than 4 rounds on average.
// Everything is integer arithmetic on uint64, so a device can evaluate the
// same P from keys() bit for bit.
class RandomPermutation {
public:
    RandomPermutation(std::uint64_t domain_size, std::uint64_t seed);  // domain_size >= 1

    std::uint64_t operator()(std::uint64_t x) const;  // x < domain_size()
    std::uint64_t inverse(std::uint64_t y) const;     // y < domain_size()

    std::uint64_t domain_size() const noexcept { return domain_size_; }
    unsigned half_bits() const noexcept { return half_bits_; }
    const std::array<std::uint64_t, 4>& keys() const noexcept { return keys_; }

private:
    std::uint64_t forward_once(std::uint64_t x) const;
    std::uint64_t backward_once(std::uint64_t y) const;
    std::uint64_t round(std::uint64_t half, std::uint64_t key) const;

    std::uint64_t domain_size_;
    unsigned half_bits_;
    std::uint64_t half_mask_;
    std::array<std::uint64_t, 4> keys_;
};

}  // namespace btforge

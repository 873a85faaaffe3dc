#include "host/spec/random_permutation.h"

#include <stdexcept>

namespace btforge {

namespace {

std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

RandomPermutation::RandomPermutation(std::uint64_t domain_size, std::uint64_t seed) : domain_size_(domain_size) {
    if (domain_size == 0) throw std::invalid_argument("RandomPermutation: empty domain");
    unsigned bits = 2;
    while (bits < 64 && (std::uint64_t{1} << bits) < domain_size) bits += 2;
    half_bits_ = bits / 2;
    half_mask_ = (std::uint64_t{1} << half_bits_) - 1;
    std::uint64_t state = seed;
    for (auto& key : keys_) {
        state += 0x9e3779b97f4a7c15ULL;
        key = mix64(state);
    }
}

std::uint64_t RandomPermutation::round(std::uint64_t half, std::uint64_t key) const {
    return mix64(half ^ key) & half_mask_;
}

std::uint64_t RandomPermutation::forward_once(std::uint64_t x) const {
    std::uint64_t left = x >> half_bits_;
    std::uint64_t right = x & half_mask_;
    for (std::uint64_t key : keys_) {
        const std::uint64_t next = left ^ round(right, key);
        left = right;
        right = next;
    }
    return (left << half_bits_) | right;
}

std::uint64_t RandomPermutation::backward_once(std::uint64_t y) const {
    std::uint64_t left = y >> half_bits_;
    std::uint64_t right = y & half_mask_;
    for (auto key = keys_.rbegin(); key != keys_.rend(); ++key) {
        const std::uint64_t previous = right ^ round(left, *key);
        right = left;
        left = previous;
    }
    return (left << half_bits_) | right;
}

std::uint64_t RandomPermutation::operator()(std::uint64_t x) const {
    if (x >= domain_size_) throw std::out_of_range("RandomPermutation: argument outside the domain");
    do x = forward_once(x);
    while (x >= domain_size_);
    return x;
}

std::uint64_t RandomPermutation::inverse(std::uint64_t y) const {
    if (y >= domain_size_) throw std::out_of_range("RandomPermutation: argument outside the domain");
    do y = backward_once(y);
    while (y >= domain_size_);
    return y;
}

}  // namespace btforge

// Evaluates the portable transcendentals for accuracy_test.py: each input
// line is a function name and one or two arguments as the hex of their bits
// ("exp 3ff0000000000000", "pow 4000000000000000 4024000000000000"); each
// output line is the result's bits in hex. Bits, not decimal text, so that
// nothing is rounded on the way.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "reference/math/portable_exp.h"
#include "reference/math/portable_log.h"
#include "reference/math/portable_pow.h"
#include "reference/math/portable_tanh.h"

namespace {

double from_bits(const std::string& hex) {
    std::uint64_t bits = std::stoull(hex, nullptr, 16);
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

std::uint64_t to_bits(double x) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string name, a, b;
    while (std::cin >> name >> a) {
        double x = from_bits(a);
        double result;
        if (name == "exp") {
            result = btforge::portable_exp(x);
        } else if (name == "expm1") {
            result = btforge::portable_expm1(x);
        } else if (name == "log") {
            result = btforge::portable_log(x);
        } else if (name == "tanh") {
            result = btforge::portable_tanh(x);
        } else if (name == "pow" && std::cin >> b) {
            result = btforge::portable_pow(x, from_bits(b));
        } else {
            std::cerr << "portable_math_eval: unknown function '" << name << "'\n";
            return 2;
        }
        std::printf("%016llx\n", static_cast<unsigned long long>(to_bits(result)));
    }
    return 0;
}

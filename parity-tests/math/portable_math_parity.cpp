// Parity of the portable transcendentals (Note [Portable transcendentals]):
// the reference's portable_exp, portable_expm1, portable_log, portable_pow
// and portable_tanh against their generated device versions
// (generated/btforge_device.cuh), bit for bit, on --count arguments per
// function: the ranges strategies use, every exponent, random bit patterns
// (NaN, infinities, subnormals) and the special values of C's Annex F.
//
// One source, two builds: nvcc -x cu runs the device versions on the GPU
// (portable_math_parity_cuda, run by scripts/gpu-check); a host compiler
// runs them as host code through the emu shim (portable_math_parity_emu,
// run by CTest: Note [Emu shim]). A new function is one Case struct and
// one line of main().
//
//   portable_math_parity_{cuda,emu} [--count N] [--seed S]
// Exit status 0 when every result is identical (two NaNs count as equal),
// 1 on any mismatch (the first ones are printed), 2 on a usage or CUDA error.
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include "host/backends/emu/emu_shim.h"
#endif
#include "btforge_device.cuh"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "reference/math/portable_exp.h"
#include "reference/math/portable_log.h"
#include "reference/math/portable_pow.h"
#include "reference/math/portable_tanh.h"

namespace {

using Inputs = std::vector<double>;

struct ExpCase {
    static constexpr const char* name = "portable_exp";
    static double reference(double x, double) { return btforge::portable_exp(x); }
    BTFORGE_DEVICE static double generated(double x, double) { return btforge::device::portable_exp(x); }
};
struct Expm1Case {
    static constexpr const char* name = "portable_expm1";
    static double reference(double x, double) { return btforge::portable_expm1(x); }
    BTFORGE_DEVICE static double generated(double x, double) { return btforge::device::portable_expm1(x); }
};
struct LogCase {
    static constexpr const char* name = "portable_log";
    static double reference(double x, double) { return btforge::portable_log(x); }
    BTFORGE_DEVICE static double generated(double x, double) { return btforge::device::portable_log(x); }
};
struct PowCase {
    static constexpr const char* name = "portable_pow";
    static double reference(double x, double y) { return btforge::portable_pow(x, y); }
    BTFORGE_DEVICE static double generated(double x, double y) { return btforge::device::portable_pow(x, y); }
};
struct TanhCase {
    static constexpr const char* name = "portable_tanh";
    static double reference(double x, double) { return btforge::portable_tanh(x); }
    BTFORGE_DEVICE static double generated(double x, double) { return btforge::device::portable_tanh(x); }
};

std::uint64_t bits_of(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

double from_bits(std::uint64_t b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

const double kSpecials[] = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 10.0, 22.0, -22.0, 0.34657359027997264,
                            709.782712893384, 709.79, -745.1332191019411, -745.14, -38.0, 1e-300, -1e-300,
                            std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                            std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN(), 9007199254740992.0, 1e300, -1e300};

// Arguments by family, in turn: the ranges strategies use, every exponent of
// either sign, random bit patterns; the special values (and, for pow, every
// pair of them) come first.
void draw_arguments(bool binary, std::size_t count, std::uint64_t seed, Inputs& x, Inputs& y) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-1074, 1023);
    auto one = [&](int family) -> double {
        switch (family) {
            case 0: return 50.0 * unit(rng);                         // log returns, z-scores
            case 1: return 1.0 + 0.01 * unit(rng);                   // near 1 (prices over prices)
            case 2: return std::ldexp(1.0 + std::fabs(unit(rng)), exponent(rng)) * (unit(rng) < 0 ? -1 : 1);
            case 3: return 760.0 * unit(rng);                        // exp's whole range
            case 4: return std::fabs(std::ldexp(1.0 + std::fabs(unit(rng)), exponent(rng)));
            default: return from_bits(rng());                        // anything, NaNs included
        }
    };
    x.clear();
    y.clear();
    for (double a : kSpecials) {
        if (binary) {
            for (double b : kSpecials) {
                x.push_back(a);
                y.push_back(b);
            }
        } else {
            x.push_back(a);
            y.push_back(0.0);
        }
    }
    while (x.size() < count) {
        int family = static_cast<int>(x.size() % 6);
        x.push_back(one(family));
        if (binary) {
            // Exponents: small reals, integers (signs of negative bases), and anything.
            int kind = static_cast<int>((x.size() / 6) % 4);
            y.push_back(kind == 0 ? 50.0 * unit(rng)
                        : kind == 1 ? std::round(40.0 * unit(rng))
                        : kind == 2 ? 1000.0 * unit(rng)
                                    : from_bits(rng()));
        } else {
            y.push_back(0.0);
        }
    }
}

#if defined(__CUDACC__)

// The one check of the CUDA runtime's status.
#define BTFORGE_PARITY_CUDA_CHECK(call)                                                                 \
    do {                                                                                                \
        cudaError_t status_ = (call);                                                                   \
        if (status_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "portable_math_parity: %s: %s\n", #call, cudaGetErrorString(status_)); \
            std::exit(2);                                                                               \
        }                                                                                               \
    } while (0)

template <class Case>
__global__ void evaluate_generated(const double* x, const double* y, double* out, std::size_t n) {
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = Case::generated(x[i], y[i]);
}

template <class Case>
Inputs run_generated(const Inputs& x, const Inputs& y) {
    std::size_t n = x.size(), bytes = n * sizeof(double);
    double *dx = nullptr, *dy = nullptr, *dout = nullptr;
    BTFORGE_PARITY_CUDA_CHECK(cudaMalloc(&dx, bytes));
    BTFORGE_PARITY_CUDA_CHECK(cudaMalloc(&dy, bytes));
    BTFORGE_PARITY_CUDA_CHECK(cudaMalloc(&dout, bytes));
    BTFORGE_PARITY_CUDA_CHECK(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice));
    BTFORGE_PARITY_CUDA_CHECK(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice));
    unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    evaluate_generated<Case><<<blocks, 256>>>(dx, dy, dout, n);
    BTFORGE_PARITY_CUDA_CHECK(cudaGetLastError());
    BTFORGE_PARITY_CUDA_CHECK(cudaDeviceSynchronize());
    Inputs out(n);
    BTFORGE_PARITY_CUDA_CHECK(cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost));
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dout);
    return out;
}

std::string backend_name() {
    cudaDeviceProp prop{};
    BTFORGE_PARITY_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    return std::string("cuda (") + prop.name + ")";
}

#else

template <class Case>
Inputs run_generated(const Inputs& x, const Inputs& y) {
    Inputs out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = Case::generated(x[i], y[i]);
    return out;
}

std::string backend_name() { return "emu (generated code compiled for the host)"; }

#endif

struct Options {
    std::size_t count = std::size_t{1} << 20;
    std::uint64_t seed = 20261124;
};

template <class Case>
bool check(bool binary, const Options& options) {
    Inputs x, y;
    draw_arguments(binary, options.count, options.seed, x, y);
    auto started = std::chrono::steady_clock::now();
    Inputs generated = run_generated<Case>(x, y);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        double expected = Case::reference(x[i], y[i]);
        bool same = bits_of(expected) == bits_of(generated[i]) || (std::isnan(expected) && std::isnan(generated[i]));
        if (same) continue;
        if (++mismatches <= 5) {
            std::printf("  MISMATCH %s(%.17g%s%.17g): reference %016llx, generated %016llx\n", Case::name, x[i],
                        binary ? ", " : "", binary ? y[i] : 0.0,
                        static_cast<unsigned long long>(bits_of(expected)),
                        static_cast<unsigned long long>(bits_of(generated[i])));
        }
    }
    std::printf("%-15s %9zu arguments  %s  %zu mismatches  (generated side %.3f s)\n", Case::name, x.size(),
                mismatches == 0 ? "bit-identical" : "DIFFERENT", mismatches, seconds);
    return mismatches == 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if ((a == "--count" || a == "--seed") && i + 1 < argc) {
            char* end = nullptr;
            unsigned long long v = std::strtoull(argv[++i], &end, 10);
            if (*end != '\0' || v == 0) {
                std::fprintf(stderr, "portable_math_parity: %s needs a positive integer\n", a.c_str());
                return 2;
            }
            (a == "--count" ? options.count : options.seed) = v;
        } else {
            std::fprintf(stderr, "usage: %s [--count N] [--seed S]\n", argv[0]);
            return 2;
        }
    }
    std::printf("portable math parity: reference vs %s, %zu arguments per function, seed %llu\n",
                backend_name().c_str(), options.count, static_cast<unsigned long long>(options.seed));
    bool ok = true;
    ok &= check<ExpCase>(false, options);
    ok &= check<Expm1Case>(false, options);
    ok &= check<LogCase>(false, options);
    ok &= check<PowCase>(true, options);
    ok &= check<TanhCase>(false, options);
    std::printf("verdict: %s\n", ok ? "all bit-identical" : "MISMATCHES");
    return ok ? 0 : 1;
}

#!/usr/bin/env python3
"""Accuracy of the portable transcendentals against a correctly rounded oracle.

    accuracy_test.py PORTABLE_MATH_EVAL [--samples N] [--seed S] [--table OUT.md]

For every function of reference/math/ and every range of the table below,
draws N arguments (seeded), evaluates them with PORTABLE_MATH_EVAL (the
reference compiled for the host, reference/math/tests/portable_math_eval.cpp)
and with mpmath at 120 bits, and measures the error in units in the last place
of the correctly rounded result: |computed - exact| / ulp(exact), ulp of a
subnormal being 2^-1074. Fails when a range's largest error exceeds its stated
bound (docs/PORTABLE_MATH.md states the bounds and the measured errors; --table
writes the measured table in that page's form).
"""
import argparse
import math
import random
import struct
import subprocess
import sys

import mpmath

mpmath.mp.prec = 120

MAX = sys.float_info.max


def bits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


def from_bits(h):
    return struct.unpack("<d", struct.pack("<Q", int(h, 16)))[0]


def ulp_of(exact):
    """ulp of the double nearest to a real number (an mpf)."""
    a = abs(exact)
    if a == 0:
        return mpmath.mpf(2) ** -1074
    e = int(mpmath.floor(mpmath.log(a, 2)))
    # mpmath's log2 may land one off at powers of two; correct it.
    if mpmath.mpf(2) ** e > a:
        e -= 1
    elif mpmath.mpf(2) ** (e + 1) <= a:
        e += 1
    return mpmath.mpf(2) ** max(e - 52, -1074)


def ulp_error(got, exact):
    if math.isinf(got) or abs(exact) > MAX:
        # Overflow: right when both are beyond the largest double (exact rounds to inf).
        limit = mpmath.mpf(MAX) + mpmath.mpf(2) ** 970  # half an ulp above MAX
        if math.isinf(got) and abs(exact) >= limit and (got > 0) == (exact > 0):
            return 0.0
        if math.isinf(got):
            return math.inf
    return float(abs(mpmath.mpf(got) - exact) / ulp_of(exact))


def uniform(lo, hi):
    return lambda rng: rng.uniform(lo, hi)


def log_uniform(lo, hi):
    return lambda rng: math.exp(rng.uniform(math.log(lo), math.log(hi)))


def signed_log_uniform(lo, hi):
    return lambda rng: rng.choice((-1.0, 1.0)) * math.exp(rng.uniform(math.log(lo), math.log(hi)))


def pow_near(target_lo, target_hi):
    """(x, y) with y log x spread over [target_lo, target_hi]: x log-uniform in
    [1e-3, 1e3], y chosen to reach the target."""
    def draw(rng):
        while True:
            x = math.exp(rng.uniform(math.log(1e-3), math.log(1e3)))
            if x != 1.0:
                return x, rng.uniform(target_lo, target_hi) / math.log(x)
    return draw


def integer_pow(rng):
    return float(rng.randint(-12, 12)) or 7.0, float(rng.randint(-30, 30))


# (function, range as the page states it, draw, bound in ulps). Ranges are
# those strategies use (log returns, volatility scaling, Kelly sizing,
# squashing a signal) and the extremes of each function's domain.
RANGES = [
    ("exp", "[-1, 1]", uniform(-1, 1), 1.0),
    ("exp", "[-50, 50]", uniform(-50, 50), 1.0),
    ("exp", "[-708, 709.78]", uniform(-708, 709.78), 1.0),
    ("exp", "[-745, -708] (subnormal results)", uniform(-745, -708), 1.0),
    ("expm1", "±[1e-12, 1e-3]", signed_log_uniform(1e-12, 1e-3), 1.0),
    ("expm1", "[-0.35, 0.35]", uniform(-0.35, 0.35), 1.0),
    ("expm1", "[-40, 40]", uniform(-40, 40), 1.0),
    ("expm1", "[40, 709.78]", uniform(40, 709.78), 1.0),
    ("log", "[0.999, 1.001]", uniform(0.999, 1.001), 1.0),
    ("log", "[0.5, 2]", uniform(0.5, 2), 1.0),
    ("log", "[1e-10, 1e10]", log_uniform(1e-10, 1e10), 1.0),
    ("log", "[2^-1074, max] (every exponent)", log_uniform(5e-324, MAX), 1.0),
    ("pow", "x in [0.5, 2], y in [-50, 50]", lambda rng: (rng.uniform(0.5, 2), rng.uniform(-50, 50)), 1.0),
    ("pow", "x in [1e-3, 1e3], y log x in [-10, 10]", pow_near(-10, 10), 1.0),
    ("pow", "x in [1e-3, 1e3], y log x in [-745, 709.7]", pow_near(-745, 709.7), 1.0),
    ("pow", "x, y integers in [-12, 12] x [-30, 30]", integer_pow, 1.0),
    ("tanh", "±[1e-12, 1e-3]", signed_log_uniform(1e-12, 1e-3), 1.0),
    ("tanh", "[-1, 1]", uniform(-1, 1), 1.0),
    ("tanh", "[-22, 22]", uniform(-22, 22), 1.0),
]

ORACLE = {
    "exp": mpmath.exp,
    "expm1": mpmath.expm1,
    "log": mpmath.log,
    "tanh": mpmath.tanh,
    "pow": lambda x, y: mpmath.power(x, y),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("evaluator")
    ap.add_argument("--samples", type=int, default=4000, help="arguments per range (default 4000)")
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--table", help="write the measured table (markdown) here")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    batches = []
    lines = []
    for function, range_text, draw, bound in RANGES:
        inputs = []
        for _ in range(args.samples):
            a = draw(rng)
            inputs.append(a if isinstance(a, tuple) else (a,))
        batches.append((function, range_text, bound, inputs))
        lines += [function + " " + " ".join(bits(v) for v in a) for a in inputs]
    out = subprocess.run([args.evaluator], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.split()
    if len(out) != len(lines):
        sys.exit("evaluator returned %d results for %d inputs" % (len(out), len(lines)))

    rows = []
    failures = []
    at = 0
    for function, range_text, bound, inputs in batches:
        worst, worst_at, total = 0.0, None, 0.0
        for a in inputs:
            got = from_bits(out[at])
            at += 1
            exact = ORACLE[function](*[mpmath.mpf(v) for v in a])
            err = ulp_error(got, exact)
            total += err
            if err > worst or worst_at is None:
                worst, worst_at = err, a
        mean = total / len(inputs)
        rows.append((function, range_text, len(inputs), worst, mean, bound))
        verdict = "ok" if worst <= bound else "FAIL"
        print("%-6s %-44s n=%-7d max %.3f ulp  mean %.3f ulp  bound %.1f  %s  (worst at %s)" %
              (function, range_text, len(inputs), worst, mean, bound, verdict,
               ", ".join(repr(v) for v in worst_at)))
        if worst > bound:
            failures.append("%s on %s: %.3f ulp > %.1f" % (function, range_text, worst, bound))

    if args.table:
        with open(args.table, "w") as f:
            f.write("| function | range | arguments | max error (ulp) | mean error (ulp) | bound (ulp) |\n")
            f.write("|---|---|---:|---:|---:|---:|\n")
            for function, range_text, n, worst, mean, bound in rows:
                f.write("| `portable_%s` | %s | %d | %.3f | %.3f | %.1f |\n" % (function, range_text, n, worst, mean,
                                                                                 bound))
    if failures:
        sys.exit("accuracy bound exceeded:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the arch oracle fixture for arch_oracle_test (Note [Reality Check,
SPA and StepM] in host/validation/superior_predictive_ability.h).

Seeded numpy matrices of model and benchmark losses go through arch's SPA,
RealityCheck and StepM with the stationary bootstrap. The positions arch draws
are recorded as it draws them, so btforge is handed the very same resamples:
the fixture holds, per case, the loss differentials (benchmark - model, as
arch forms them), the positions of every resample, and arch's p-values,
critical value and superior models. Floats are written in repr (round-trip)
precision.
"""
import argparse
import json
import sys

try:
    import numpy as np
    import arch
    from arch.bootstrap import SPA, RealityCheck, StepM
except ImportError as exc:  # the oracle must never be skipped silently
    sys.stderr.write(
        "arch_fixture: cannot import numpy/arch (%s).\n"
        "Install the oracle with: scripts/install-deps --test\n" % exc)
    sys.exit(1)


def record_positions(bootstrap):
    """Wraps bootstrap.update_indices so every resample's positions are kept."""
    recorded = []
    draw = bootstrap.update_indices

    def recording():
        positions = draw()
        recorded.append([int(p) for p in np.asarray(positions)])
        return positions

    bootstrap.update_indices = recording
    return recorded


def losses(rng, t, k, edges, scales):
    """T x K model losses: noise less each model's edge (a loss below the
    benchmark's is a better model), and the benchmark's."""
    benchmark = rng.standard_normal(t) * 0.5
    models = np.empty((t, k))
    for j in range(k):
        models[:, j] = benchmark - edges[j] + scales[j] * rng.standard_normal(t)
    return benchmark, models


CASES = [
    # name, T, K, block, reps, size, edges (cycled), scales (cycled)
    ("noise", 60, 12, 4, 300, 0.05, [0.0], [1.0]),
    ("three planted edges", 250, 30, 8, 400, 0.05, [0.5, 0.4, 0.3] + [0.0] * 27, [1.0]),
    ("far worse models recentred", 120, 20, 5, 300, 0.10, [0.2, -2.0, -0.05, -1.5], [1.0, 0.1, 2.0, 0.2]),
    ("iid resamples, one observation blocks", 40, 9, 1, 250, 0.05, [0.3, 0.0, -0.3], [1.0, 0.5]),
    ("one model", 80, 1, 3, 200, 0.05, [0.25], [1.0]),
    ("many small edges, several steps", 300, 60, 6, 500, 0.10,
     [0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.0, -0.05, -0.1], [1.0, 0.8, 1.2]),
    ("short streams", 8, 15, 2, 300, 0.05, [0.4, 0.0, -0.4], [1.0]),
    # StepM in four passes (three steps that name models): its own market,
    # drawn from data seed 19, found by trying seeds until arch took four.
    ("a ladder of edges, four passes", 200, 40, 4, 400, 0.10, [0.5 - 0.38 * i / 15 for i in range(16)] + [0.0] * 24,
     [1.0], 19, 77),
]


def run_case(rng, name, t, k, block, reps, size, edges, scales, data_seed=None, seed=None):
    if data_seed is not None:
        rng = np.random.default_rng(data_seed)
    benchmark, models = losses(rng, t, k, [edges[j % len(edges)] for j in range(k)],
                               [scales[j % len(scales)] for j in range(k)])
    spa = SPA(benchmark, models, block_size=block, reps=reps, bootstrap="stationary", seed=seed)
    positions = record_positions(spa.bootstrap)
    spa.compute()
    rc = RealityCheck(benchmark, models, block_size=block, reps=reps, bootstrap="stationary", seed=seed)
    rc.compute()
    stepm = StepM(benchmark, models, size=size, block_size=block, reps=reps, bootstrap="stationary", seed=seed)
    stepm_positions = record_positions(stepm.spa.bootstrap)
    stepm.compute()
    if stepm_positions != positions:
        raise SystemExit("arch_fixture: StepM drew other positions than SPA with the same seed (%s)" % name)
    differentials = np.asarray(benchmark)[:, None] - np.asarray(models)
    return {
        "name": name,
        "observations": t,
        "combinations": k,
        "mean_block": block,
        "size": size,
        # stream k at [k * T]: combination-major, as btforge stores them
        "differentials": [float(v) for v in differentials.T.reshape(-1)],
        "positions": positions,
        "pvalue_lower": float(spa.pvalues["lower"]),
        "pvalue_consistent": float(spa.pvalues["consistent"]),
        "pvalue_upper": float(spa.pvalues["upper"]),
        "reality_check": float(rc.pvalues["upper"]),
        "critical_value": float(spa.critical_values(size)["consistent"]),
        "superior": [int(i) for i in stepm.superior_models],
        "best_mean": float(np.max(differentials.mean(axis=0))),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(20261128)
    cases = [run_case(rng, *case) if len(case) == 10 else run_case(rng, *case, seed=1000 + i)
             for i, case in enumerate(CASES)]
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"arch": arch.__version__, "numpy": np.__version__, "cases": cases}, f)
    steps = ", ".join("%s: %d superior" % (c["name"], len(c["superior"])) for c in cases)
    print("arch_fixture: %d cases with arch %s (%s)" % (len(cases), arch.__version__, steps))


if __name__ == "__main__":
    main()

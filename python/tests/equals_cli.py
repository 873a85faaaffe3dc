"""btforge.sweep equals the command line beside it, row for row, with its
validation, and both name the same build. Run where there is no test
suite: on the GPU machine (`--backend cuda`: the GPU's rows against the
command line on the CPU reference and on the GPU; CI has no GPU) and in the
clean Debian roots where scripts/wheel-check installs the wheel
(`--backend cpu`, against the wheel's own `btforge` command).

    python python/tests/equals_cli.py [--backend cpu|cuda] [--kernels] CLI OUTDIR

--kernels: also require that the package carries GPU kernels (a wheel
built with nvcc). Exit status 0 when every comparison holds."""

import argparse
import json
import subprocess
import sys
import time

import pandas as pd

import btforge
from btforge._csv import read_csv

SWEEP = ["--all-rows", "--walk-forward", "rolling:4", "--pbo"]


def same_build(cli, out, build, kernels) -> bool:
    """Note [The commit of a build]: the package, the command line and a result JSON name one version and
    one commit."""
    ok = True
    shown = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True).stdout
    expected = f"btforge {build['version']} (commit {build['commit']})\n"
    if shown != expected:
        ok = False
        print(f"  btforge --version says {shown!r}, the package {expected!r}")
    with open(f"{out}/cpu.json") as f:
        written = json.load(f)["build"]
    if written != {"version": build["version"], "commit": build["commit"]}:
        ok = False
        print(f"  the result JSON's build {written} is not the package's")
    if build["version"] != btforge.__version__ or build["commit"] in ("", "unknown"):
        ok = False
        print(f"  the package's version or commit is missing: {build}")
    if kernels and not build["kernels_nvcc"]:
        ok = False
        print("  the package carries no GPU kernels (built without nvcc)")
    print(f"build: btforge {build['version']}, commit {build['commit']}, kernels "
          f"{'nvcc ' + build['kernels_nvcc'] + ', ' + build['kernels_cubins'] if build['kernels_nvcc'] else 'none'}"
          f": {'the same in the package, the command line and the JSON' if ok else 'DIFFERS'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["cpu", "cuda"], default="cuda")
    parser.add_argument("--kernels", action="store_true")
    parser.add_argument("cli")
    parser.add_argument("out")
    args = parser.parse_args()
    market = btforge.Market.synthetic()
    began = time.perf_counter()
    ours = btforge.sweep(market, backend=args.backend, all_rows=True, walk_forward="rolling:4", pbo=True,
                         progress=False)
    print(f"btforge.sweep {args.backend}: {ours.backend}; wall {time.perf_counter() - began:.3f} s, engine "
          f"{ours.engine_seconds:.3f} s, sweep {ours.seconds:.4f} s, python "
          f"{(ours.wall_seconds - ours.engine_seconds) * 1000:.2f} ms", flush=True)
    ok = True
    for backend in ("cpu", "cuda") if args.backend == "cuda" else ("cpu",):
        began = time.perf_counter()
        subprocess.run([args.cli, "sweep", "--backend", backend, *SWEEP, "-o", f"{args.out}/{backend}"], check=True,
                       capture_output=True)
        print(f"command line {backend}: {time.perf_counter() - began:.3f} s", flush=True)
        table = read_csv(f"{args.out}/{backend}.csv").astype(ours.table.dtypes.to_dict())
        try:
            pd.testing.assert_frame_equal(ours.table, table, check_exact=True)
            print(f"  table: {len(table)} rows bit-identical to the command line's {backend} CSV")
        except AssertionError as error:
            ok = False
            print(f"  table DIFFERS from the {backend} CSV: {error}")
        with open(f"{args.out}/{backend}.validation.json") as f:
            validation = json.load(f)
        mine = dict(ours.validation)
        mine.pop("text")
        differing = [k for k in validation if validation[k] != mine.get(k)]
        ok = ok and not differing
        print(f"  validation JSON: {'equal' if not differing else 'differs in ' + ', '.join(differing)}")
    best = ours.replay(1)
    same = all(best.metrics[k] == ours.table[k].iloc[0] for k in best.metrics)
    ok = ok and same
    print(f"replay of the best row on the CPU reference: metrics {'equal' if same else 'DIFFER'}")
    ok = same_build(args.cli, args.out, btforge.build_info(), args.kernels) and ok
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

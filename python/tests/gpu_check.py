"""On a GPU machine: btforge.sweep on the GPU equals the command line on the
CPU reference, row for row, with its validation (run by hand or from the
device: `python python/tests/gpu_check.py CLI OUTDIR`; CI has no GPU).

Exit status 0 when every comparison holds."""

import json
import subprocess
import sys
import time

import pandas as pd

import btforge
from btforge._csv import read_csv


def main() -> int:
    cli, out = sys.argv[1], sys.argv[2]
    market = btforge.Market.synthetic()
    began = time.perf_counter()
    gpu = btforge.sweep(market, backend="cuda", all_rows=True, walk_forward="rolling:4", pbo=True, progress=False)
    print(f"btforge.sweep cuda: {gpu.backend}; wall {time.perf_counter() - began:.3f} s, engine "
          f"{gpu.engine_seconds:.3f} s, sweep {gpu.seconds:.4f} s, python "
          f"{(gpu.wall_seconds - gpu.engine_seconds) * 1000:.2f} ms", flush=True)
    ok = True
    for backend in ("cpu", "cuda"):
        began = time.perf_counter()
        subprocess.run([cli, "sweep", "--backend", backend, "--all-rows", "--walk-forward", "rolling:4", "--pbo",
                        "-o", f"{out}/{backend}"], check=True, capture_output=True)
        print(f"command line {backend}: {time.perf_counter() - began:.3f} s", flush=True)
        table = read_csv(f"{out}/{backend}.csv").astype(gpu.table.dtypes.to_dict())
        try:
            pd.testing.assert_frame_equal(gpu.table, table, check_exact=True)
            print(f"  table: {len(table)} rows bit-identical to the command line's {backend} CSV")
        except AssertionError as error:
            ok = False
            print(f"  table DIFFERS from the {backend} CSV: {error}")
        with open(f"{out}/{backend}.validation.json") as f:
            validation = json.load(f)
        ours = dict(gpu.validation)
        ours.pop("text")
        differing = [k for k in validation if validation[k] != ours.get(k)]
        ok = ok and not differing
        print(f"  validation JSON: {'equal' if not differing else 'differs in ' + ', '.join(differing)}")
    best = gpu.replay(1)
    same = all(best.metrics[k] == gpu.table[k].iloc[0] for k in best.metrics)
    ok = ok and same
    print(f"replay of the best row on the CPU reference: metrics {'equal' if same else 'DIFFER'}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

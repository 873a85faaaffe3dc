"""What the Python side costs on the quickstart sweep (issue 18: under 5%).

    python python/benchmarks/sweep_overhead.py [--repeats 5] [--cli build/release/host/cli/btforge]

Runs the quickstart sweep (the default strategy's quickstart grid, 4 608
combinations x 4 symbols x 17 520 bars, on every core) alternately through
btforge.sweep and, when --cli is given, through the command line, and
prints per run:
  wall     btforge.sweep from call to return (the market built beforehand,
           as a notebook holds it)
  engine   the engine's run_sweep inside it: loading the strategy and grid,
           the indicator series, the sweep, the ranking
  python   wall - engine: the option dict, the thread, the waiting, the
           columns, the JSON and the DataFrame
and the medians. The command line's whole process (start, market, sweep,
files, table) is timed beside it for scale.
"""

import argparse
import statistics
import subprocess
import tempfile
import time

import btforge


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cli", default=None, help="a btforge command line to time beside (optional)")
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()
    began = time.perf_counter()
    market = btforge.Market.synthetic()
    print(f"market: {market.description}, built in {time.perf_counter() - began:.3f} s")
    rows = []
    for repeat in range(args.repeats):
        result = btforge.sweep(market, threads=args.threads, progress=False)
        python = result.wall_seconds - result.engine_seconds
        line = (f"run {repeat + 1}: wall {result.wall_seconds:.4f} s, engine {result.engine_seconds:.4f} s "
                f"(sweep {result.seconds:.4f} s), python {python * 1000:.2f} ms = "
                f"{100 * python / result.wall_seconds:.2f}% of the call")
        cli_seconds = None
        if args.cli:
            with tempfile.TemporaryDirectory() as folder:
                t = time.perf_counter()
                subprocess.run([args.cli, "sweep", "--threads", str(args.threads), "-o", f"{folder}/r"], check=True,
                               capture_output=True)
                cli_seconds = time.perf_counter() - t
            line += f"; command line {cli_seconds:.4f} s"
        print(line, flush=True)
        rows.append((result.wall_seconds, result.engine_seconds, python, cli_seconds))
    wall = statistics.median(r[0] for r in rows)
    python = statistics.median(r[2] for r in rows)
    print(f"median: wall {wall:.4f} s, python {python * 1000:.2f} ms = {100 * python / wall:.2f}% "
          f"({result.backend}; {result.summary['combinations']} combinations)")
    if args.cli:
        print(f"median command line: {statistics.median(r[3] for r in rows):.4f} s")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Markets to read a verdict on (docs/VALIDATION.md, "The verdict, worked").

Writes one symbol of hourly bars as a long CSV whose log price is a Gaussian
random walk of SIGMA per bar plus, with --amplitude, a sine of that
amplitude and --cycle bars: the planted edge of the Monte Carlo test of the
verdict (host/validation/tests/strategy_monte_carlo_test.cpp), which a fast
moving-average crossover can follow and a slow one cannot. Without
--amplitude the market has no edge to find.

    planted_markets.py walk.csv --seed 3                       # no edge
    planted_markets.py edge.csv --seed 3 --sigma 0.004 --amplitude 0.15
"""

import argparse
import math
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bars", type=int, default=8000)
    parser.add_argument("--sigma", type=float, default=0.01, help="the random walk's deviation per bar")
    parser.add_argument("--amplitude", type=float, default=0.0, help="the planted sine's amplitude in log price")
    parser.add_argument("--cycle", type=float, default=600.0, help="the planted sine's period in bars")
    args = parser.parse_args()
    if args.bars < 2 or args.sigma < 0 or args.amplitude < 0 or args.cycle <= 0:
        parser.error("--bars >= 2, --sigma >= 0, --amplitude >= 0 and --cycle > 0")
    rng = random.Random(args.seed)
    start = 1_704_067_200  # 2024-01-01T00:00:00Z
    walk, close = 0.0, 100.0
    with open(args.output, "w") as f:
        f.write("timestamp,symbol,open,high,low,close,volume\n")
        for t in range(args.bars):
            walk += args.sigma * rng.gauss(0.0, 1.0)
            trend = args.amplitude * math.sin(2.0 * math.pi * t / args.cycle)
            price = round(100.0 * math.exp(trend + walk), 4)
            opened = close
            high = round(max(opened, price) * 1.001, 4)
            low = round(min(opened, price) * 0.999, 4)
            f.write(f"{start + 3600 * t},MCUSDT,{opened},{high},{low},{price},1000\n")
            close = price


if __name__ == "__main__":
    main()

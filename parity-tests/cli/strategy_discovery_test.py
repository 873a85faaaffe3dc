#!/usr/bin/env python3
"""Note [Strategy discovery] is written twice, once per language (CMake for
the configure step, C++ in btforge-gen): both must find the same strategies.

Usage: strategy_discovery_test.py PATH/TO/btforge NAME,NAME,... [unittest options]

The list is what cmake/BtforgeStrategies.cmake found; `btforge strategies
--names` prints what btforge-gen's generated catalog holds.
"""
import os
import sys

import cli_end_to_end as e2e

CMAKE_NAMES = []


class StrategyDiscovery(e2e.CliTestCase):
    def test_cmake_and_the_generator_find_the_same_strategies(self):
        p = self.btforge("strategies", "--names")
        self.assertEqual(p.stdout.split(), CMAKE_NAMES)

    def test_the_listing_names_each_spec(self):
        p = self.btforge("strategies")
        for name in CMAKE_NAMES:
            self.assertIn("%s  (spec/%s.json, " % (name, name), p.stdout)
        if "default" in CMAKE_NAMES:
            # Note [Parameters a mode reads]: the spec's claims, grouped by condition.
            self.assertIn("    read only when mode=1: bb_period, bb_k, rsi_oversold, rsi_overbought (proven", p.stdout)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: %s PATH/TO/btforge NAMES [unittest options]" % os.path.basename(sys.argv[0]))
    CMAKE_NAMES = sys.argv.pop(2).split(",")
    e2e.main()

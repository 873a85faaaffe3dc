#!/usr/bin/env python3
"""btforge parity's options (issue 14): --help lists exactly the backends
parity accepts, and a rejected backend's error names the accepted ones.

Usage: parity_options_test.py PATH/TO/btforge [unittest options]
"""
import re

import cli_end_to_end as e2e


class ParityOptions(e2e.CliTestCase):
    def test_help_lists_only_the_backends_parity_takes(self):
        help_text = self.btforge("parity", "--help").stdout
        backend = help_text[help_text.index("--backend"):help_text.index("--device")]
        backend = re.sub(r"\s+", " ", backend)
        self.assertIn("emu|cuda: emu = the generated kernels compiled for the host; cuda = the generated kernels "
                      "on the GPU", backend)
        for rejected in ("cpu =", "auto ="):
            self.assertNotIn(rejected, backend)

    def test_sweep_help_still_lists_all_four(self):
        help_text = re.sub(r"\s+", " ", self.btforge("sweep", "--help").stdout)
        for name in ("cpu =", "emu =", "cuda =", "auto ="):
            self.assertIn(name, help_text)

    def test_a_rejected_backend_names_the_accepted_ones(self):
        p = self.btforge("parity", "--backend", "cpu", expect=2)
        self.assertIn("(emu or cuda)", p.stderr)


if __name__ == "__main__":
    e2e.main()

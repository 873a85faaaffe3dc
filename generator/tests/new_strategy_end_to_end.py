#!/usr/bin/env python3
"""A new strategy from nothing to a passing parity, the way a user adds one.

    new_strategy_end_to_end.py BTFORGE_GEN SOURCE_DIR CMAKE CXX [unittest options]

On a copy of the tree (without build outputs, in a temporary directory):
  1. `btforge-gen --new-strategy demo_breakout` writes the skeleton
     (Note [The strategy scaffold]);
  2. one configure and ONE build of btforge and of the strategy's scenario
     test (Note [Generated code waits for its generation]: the first build
     must be right);
  3. the scenario test passes; `btforge sweep --strategy demo_breakout
     --backend emu` ranks rows; `btforge parity --backend emu` is 100%
     identical; CTest registers its parity, CLI checks and scenario tests;
  4. the files that changed are the strategy's own (folder, spec, grid, its
     generated sweep kernel and binding) and the lists of strategies, nothing
     else (Note [Generated files stay local]).
Slow (a whole build): registered with CTest as new_strategy_end_to_end, label
"slow"; ccache is used when it is installed.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

GENERATOR = CMAKE = CXX = SOURCE_DIR = ""
NAME = "demo_breakout"


def run(args, cwd, timeout=1800, env=None):
    p = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout,
                       env=env)
    if p.returncode != 0:
        raise AssertionError("%s\nexit %d\n%s" % (" ".join(args), p.returncode, p.stdout[-6000:]))
    return p.stdout


# What is not part of the tree (.gitignore's entries, and git's own folder).
SKIPPED = ("build", "out", ".git", ".venv", "__pycache__")


def copy_tree(source, dest):
    """The tree without build outputs; no git needed (a fresh machine may lack it)."""
    def ignore(folder, names):
        top = os.path.abspath(folder) == os.path.abspath(source)
        return [n for n in names if n == "__pycache__" or n.endswith(".pyc") or
                (top and (n in SKIPPED or n.startswith("build")))]
    shutil.copytree(source, dest, ignore=ignore, dirs_exist_ok=True)


def manifest(root):
    """{relative path: sha256} of the tree's files (Note [Generated files stay local] is checked on it)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        if os.path.abspath(folder) == os.path.abspath(root):
            dirs[:] = [d for d in dirs if d not in SKIPPED and not d.startswith("build")]
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root).replace(os.sep, "/")] = hashlib.sha256(f.read()).hexdigest()
    return out


def add_strategy(root):
    """The one step a user takes: the scaffold."""
    return run([GENERATOR, "--root", root, "--new-strategy", NAME], root)


class NewStrategyEndToEnd(unittest.TestCase):
    def test_from_nothing_to_parity_in_one_build(self):
        root = tempfile.mkdtemp(prefix="btforge-new-strategy-")
        self.addCleanup(shutil.rmtree, root, True)
        copy_tree(SOURCE_DIR, root)
        before = manifest(root)
        print(add_strategy(root))

        build = os.path.join(root, "build", "ci")
        configure = [CMAKE, "-S", root, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER=" + CXX,
                     "-DBTFORGE_WERROR=ON"]
        if shutil.which("ccache"):
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        started = time.monotonic()
        run(configure, root)
        jobs = str(os.cpu_count() or 2)
        # Paths relative to the copy, so ccache finds the objects of an earlier run.
        env = dict(os.environ, CCACHE_BASEDIR=root)
        run([CMAKE, "--build", build, "-j", jobs, "--target", "btforge", NAME + "_scenarios_test"], root, env=env)
        print("configure + build: %.0f s" % (time.monotonic() - started))

        scenario = os.path.join(build, "reference", NAME + "_scenarios_test")
        print(run([scenario], root)[-300:])
        btforge = os.path.join(build, "host", "cli", "btforge")
        market = ["--synthetic-bars", "3000", "--synthetic-symbols", "3"]
        os.makedirs(os.path.join(root, "out"))
        out = run([btforge, "sweep", "--strategy", NAME, "--backend", "emu", "--threads", jobs, "-o",
                   os.path.join(root, "out", "demo"), *market], root)
        self.assertIn("rank", out)
        with open(os.path.join(root, "out", "demo.csv")) as f:
            self.assertGreater(len(f.read().splitlines()), 2)
        out = run([btforge, "parity", "--backend", "emu", "--strategy", NAME, "--symbols", "3", "--bars", "4000",
                   "--combinations", "2000", "--threads", jobs], root)
        self.assertIn("100", out)

        # CI checks it with no list to edit: its parity, its liquidation parity
        # in both margin modes, its CLI checks and its scenario tests are
        # registered with CTest.
        ctest = os.path.join(os.path.dirname(CMAKE), "ctest")
        listed = run([ctest if os.path.exists(ctest) else "ctest", "-N", "-R", NAME], build)
        for test in ("parity_emu_" + NAME, "strategy_checks_" + NAME, NAME + "_scenarios_test",
                     "parity_emu_liquidation_%s_cross" % NAME, "parity_emu_liquidation_%s_isolated" % NAME):
            self.assertIn(test, listed, "CTest does not register " + test)

        after = manifest(root)
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
        self.assertEqual(changed, sorted([
            "generated/btforge_entry_points.h",
            "generated/strategy_catalog.cpp",
            "generated/%s_binding.cpp" % NAME,
            "generated/%s_sweep.cu" % NAME,
            "reference/strategies/%s/%s_strategy.h" % (NAME, NAME),
            "reference/strategies/%s/tests/%s_scenarios_test.cpp" % (NAME, NAME),
            "spec/%s.json" % NAME,
            "spec/grids/%s_bench_large.json" % NAME,
            "spec/grids/%s_quickstart.json" % NAME,
        ]), "adding a strategy must change its own files and the lists of strategies only")


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit("usage: %s BTFORGE_GEN SOURCE_DIR CMAKE CXX [unittest options]" % sys.argv[0])
    GENERATOR, SOURCE_DIR, CMAKE, CXX = (os.path.abspath(a) if i < 3 else a
                                         for i, a in enumerate(sys.argv[1:5]))
    del sys.argv[1:5]
    unittest.main(verbosity=2)

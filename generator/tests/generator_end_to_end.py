#!/usr/bin/env python3
"""btforge-gen end to end, the way a reviewer uses it.

    generator_end_to_end.py BTFORGE_GEN SOURCE_DIR [unittest options]

Every test works on a fresh copy of reference/, spec/, templates/ and
generated/ of SOURCE_DIR in a temporary directory (the checkout itself is only
read), runs the real btforge-gen binary on it and looks at exit codes, stdout,
stderr and the bytes of generated/:

  * --check passes on the fresh copy (the checked-in generated/ is current);
  * regeneration is byte-identical across runs, copies and working directories;
  * a one-line change of the stop-loss rule changes exactly that line of
    btforge_device.cuh plus the "// inputs:" stamp lines of the files made
    from it, and no strategy's files (Note [Generated files stay local]);
  * a change inside one strategy's folder changes that strategy's files only;
  * --check exits 1 on a hand-edited generated file (with a unified diff
    naming it), a changed template, a stray file in generated/;
  * a subset violation fails generation with file:line:col and writes nothing.

Registered with CTest as generator_end_to_end (label "generator").
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

GENERATOR = ""
SOURCE_DIR = ""
COPIED = ("reference", "spec", "templates", "generated")

STOP_LOSS = os.path.join("reference", "exits", "stop_loss.h")
STOP_LINE_OLD = "        if (low <= stop) return kStopHit;"
STOP_LINE_NEW = "        if (low < stop) return kStopHit;"
STAMP_PREFIX = "// inputs: "
STAMP_RE = re.compile(r"^// inputs: sha256:([0-9a-f]{16}) of (\S.*)$")
SHARED_FILES = {"btforge_device.cuh", "indicator_series.cu"}  # made from all of the shared reference


def read_tree(folder):
    """{name: bytes} of the regular files directly in `folder`."""
    out = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                out[name] = f.read()
    return out


def mtimes(folder):
    return {name: os.stat(os.path.join(folder, name)).st_mtime_ns for name in os.listdir(folder)}


def replace_once(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(old) != 1:
        raise AssertionError("%s: expected exactly one %r, found %d" % (path, old, text.count(old)))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))


def changed_lines(old, new):
    """(removed, added) lines of a line diff of two texts."""
    removed, added = [], []
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        if line.startswith("-"):
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
    return removed, added


class RepositoryCopy(unittest.TestCase):
    """A fresh copy of the generator's inputs and outputs per test."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="btforge-gen-e2e-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.root = os.path.join(self.tmp, "repo")
        self.copy_repository(self.root)
        self.generated = os.path.join(self.root, "generated")

    @staticmethod
    def copy_repository(destination):
        os.makedirs(destination)
        for name in COPIED:
            shutil.copytree(os.path.join(SOURCE_DIR, name), os.path.join(destination, name),
                            ignore=shutil.ignore_patterns("__pycache__"))

    def gen(self, *args, root=None, cwd=None):
        """Runs btforge-gen --root ROOT ARGS; returns the CompletedProcess."""
        command = [GENERATOR, "--root", root if root is not None else self.root] + list(args)
        return subprocess.run(command, cwd=cwd if cwd is not None else self.tmp, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)

    def assertExit(self, result, code):
        self.assertEqual(result.returncode, code,
                         "exit %d, expected %d\n--- stdout\n%s--- stderr\n%s" %
                         (result.returncode, code, result.stdout, result.stderr))


class CheckOnFreshCopy(RepositoryCopy):

    def test_check_passes_on_the_checked_in_generated_folder(self):
        before = read_tree(self.generated)
        result = self.gen("--check")
        self.assertExit(result, 0)
        self.assertEqual(result.stdout, "")
        self.assertIn("generated/ is up to date", result.stderr)
        self.assertEqual(read_tree(self.generated), before, "--check must not write")

    def test_every_generated_file_carries_the_stamp_of_its_own_inputs(self):
        for name, content in read_tree(self.generated).items():
            lines = content.decode("utf-8").splitlines()
            self.assertTrue(lines[0].startswith("// @generated by btforge-gen "), name)
            self.assertRegex(lines[2], STAMP_RE, name)
            inputs = STAMP_RE.match(lines[2]).group(2)
            if name.endswith(("_sweep.cu", "_binding.cpp")):
                strategy = name.rsplit("_", 1)[0]
                self.assertIn("spec/%s.json" % strategy, inputs, name)
                self.assertIn("reference/strategies/%s/" % strategy, inputs, name)
                self.assertNotIn("reference/exits/", inputs, name)


class Reproducible(RepositoryCopy):

    def test_regeneration_is_byte_identical_across_runs_copies_and_working_directories(self):
        checked_in = read_tree(self.generated)

        first = self.gen()
        self.assertExit(first, 0)
        self.assertIn("(0 changed)", first.stderr)
        self.assertEqual(read_tree(self.generated), checked_in)
        stamps_before = mtimes(self.generated)

        second = self.gen()
        self.assertExit(second, 0)
        self.assertEqual(read_tree(self.generated), checked_in)
        self.assertEqual(mtimes(self.generated), stamps_before, "unchanged files must not be rewritten")

        # cwd elsewhere, --root absolute.
        elsewhere = os.path.join(self.tmp, "elsewhere", "deeper")
        os.makedirs(elsewhere)
        self.assertExit(self.gen(cwd=elsewhere), 0)
        self.assertEqual(read_tree(self.generated), checked_in)

        # cwd elsewhere, --root relative to it.
        relative = os.path.relpath(self.root, elsewhere)
        self.assertExit(self.gen("--check", root=relative, cwd=elsewhere), 0)

        # cwd inside the repository, --root ".".
        self.assertExit(self.gen("--check", root=".", cwd=self.root), 0)

        # A second copy at another absolute path, rendered into a fresh --out:
        # no absolute path or machine detail leaks into the bytes.
        other = os.path.join(self.tmp, "another", "place", "repo")
        self.copy_repository(other)
        out = os.path.join(self.tmp, "fresh-out")
        result = self.gen("--out", out, root=other, cwd=elsewhere)
        self.assertExit(result, 0)
        self.assertEqual(read_tree(out), checked_in)
        for name, content in read_tree(out).items():
            self.assertNotIn(self.tmp.encode(), content, name)
            self.assertNotIn(SOURCE_DIR.encode(), content, name)

    def test_regenerates_a_deleted_file(self):
        checked_in = read_tree(self.generated)
        os.remove(os.path.join(self.generated, "btforge_layout.h"))
        check = self.gen("--check")
        self.assertExit(check, 1)
        self.assertIn("generated/btforge_layout.h is missing", check.stdout)
        self.assertExit(self.gen(), 0)
        self.assertEqual(read_tree(self.generated), checked_in)


class ConfigPathAndRemovedOutputs(RepositoryCopy):
    """Two generator bugs this suite found, kept as regression tests."""

    def test_stamp_does_not_depend_on_how_the_config_path_is_spelled(self):
        # The spec hash names --config relative to the root however it was
        # spelled ("./spec/...", absolute), so the stamp never holds an
        # absolute path (Note [Generated-file stamp]).
        self.assertExit(self.gen("--check", "--config", "./spec/generator.json"), 0)
        absolute = os.path.join(self.root, "spec", "generator.json")
        self.assertExit(self.gen("--check", "--config", absolute), 0)

    def test_regenerate_then_check_passes_after_a_strategy_is_removed(self):
        # Regeneration removes the files of a strategy whose spec and folder
        # are gone (Note [Strategy discovery]), so --check agrees afterwards.
        os.remove(os.path.join(self.root, "spec", "sma_cross.json"))
        shutil.rmtree(os.path.join(self.root, "reference", "strategies", "sma_cross"))
        self.assertExit(self.gen(), 0)
        self.assertNotIn("sma_cross_sweep.cu", read_tree(self.generated))
        self.assertNotIn("sma_cross_binding.cpp", read_tree(self.generated))
        self.assertExit(self.gen("--check"), 0)

    def test_a_folder_without_its_spec_is_named(self):
        os.remove(os.path.join(self.root, "spec", "sma_cross.json"))
        result = self.gen()
        self.assertExit(result, 1)
        self.assertIn("reference/strategies/sma_cross/: a strategy folder without its spec: expected "
                      "spec/sma_cross.json", result.stderr)


class StopLossChange(RepositoryCopy):

    def test_one_line_of_the_reference_changes_one_line_of_generated_code_plus_the_stamps(self):
        before = read_tree(self.generated)
        replace_once(os.path.join(self.root, STOP_LOSS), STOP_LINE_OLD + "\n", STOP_LINE_NEW + "\n")

        check = self.gen("--check")
        self.assertExit(check, 1)
        self.assertIn("+" + STOP_LINE_NEW + "\n", check.stdout)
        self.assertIn("-" + STOP_LINE_OLD + "\n", check.stdout)

        self.assertExit(self.gen(), 0)
        after = read_tree(self.generated)
        self.assertEqual(sorted(after), sorted(before), "the set of generated files must not change")

        for name in sorted(before):
            with self.subTest(file=name):
                removed, added = changed_lines(before[name].decode("utf-8"), after[name].decode("utf-8"))
                if name not in SHARED_FILES:
                    # Note [Generated files stay local]: not made from the stop rule.
                    self.assertEqual((removed, added), ([], []))
                    continue
                stamp_removed = [line for line in removed if line.startswith(STAMP_PREFIX)]
                stamp_added = [line for line in added if line.startswith(STAMP_PREFIX)]
                self.assertEqual(len(stamp_removed), 1, removed)
                self.assertEqual(len(stamp_added), 1, added)
                old_stamp = STAMP_RE.match(stamp_removed[0])
                new_stamp = STAMP_RE.match(stamp_added[0])
                self.assertIsNotNone(old_stamp, stamp_removed[0])
                self.assertIsNotNone(new_stamp, stamp_added[0])
                # The hash moves, the list of inputs does not.
                self.assertNotEqual(old_stamp.group(1), new_stamp.group(1))
                self.assertEqual(old_stamp.group(2), new_stamp.group(2))

                code_removed = [line for line in removed if not line.startswith(STAMP_PREFIX)]
                code_added = [line for line in added if not line.startswith(STAMP_PREFIX)]
                if name == "btforge_device.cuh":
                    self.assertEqual(code_removed, [STOP_LINE_OLD])
                    self.assertEqual(code_added, [STOP_LINE_NEW])
                else:
                    self.assertEqual(code_removed, [])
                    self.assertEqual(code_added, [])

        check = self.gen("--check")
        self.assertExit(check, 0)

    def test_a_change_inside_one_strategy_changes_its_files_only(self):
        before = read_tree(self.generated)
        header = os.path.join(self.root, "reference", "strategies", "sma_cross", "sma_cross_strategy.h")
        replace_once(header, "struct BT_KERNEL SmaCrossSymbolState {\n",
                     "// A reviewer's note.\nstruct BT_KERNEL SmaCrossSymbolState {\n")
        self.assertExit(self.gen(), 0)
        after = read_tree(self.generated)
        changed = sorted(name for name in before if before[name] != after[name])
        self.assertEqual(changed, ["sma_cross_binding.cpp", "sma_cross_sweep.cu"])
        self.assertIn(b"// A reviewer's note.\nstruct SmaCrossSymbolState {", after["sma_cross_sweep.cu"])


class CheckFailures(RepositoryCopy):

    def test_hand_edit_of_a_generated_file(self):
        device = os.path.join(self.generated, "btforge_device.cuh")
        with open(device, encoding="utf-8") as f:
            original = f.read()
        self.assertIn(STOP_LINE_OLD + "\n", original)
        edited_line = STOP_LINE_OLD.replace("<=", "<") + "  // hand edit"
        replace_once(device, STOP_LINE_OLD + "\n", edited_line + "\n")

        result = self.gen("--check")
        self.assertExit(result, 1)
        self.assertIn("--- generated/btforge_device.cuh (checked in)\n", result.stdout)
        self.assertIn("+++ generated/btforge_device.cuh (regenerated)\n", result.stdout)
        self.assertRegex(result.stdout, re.compile(r"^@@ -\d+(,\d+)? \+\d+(,\d+)? @@", re.M))
        self.assertIn("\n-" + edited_line + "\n", result.stdout)
        self.assertIn("\n+" + STOP_LINE_OLD + "\n", result.stdout)
        # Only the edited file is named.
        self.assertEqual(re.findall(r"^--- (\S+)", result.stdout, re.M), ["generated/btforge_device.cuh"])
        self.assertIn("generated/ is stale", result.stderr)
        with open(device, encoding="utf-8") as f:
            self.assertIn(edited_line, f.read(), "--check must leave the hand edit in place")

        # Regeneration repairs it.
        self.assertExit(self.gen(), 0)
        with open(device, encoding="utf-8") as f:
            self.assertEqual(f.read(), original)

    def test_changed_template(self):
        template = os.path.join(self.root, "templates", "strategy_sweep.cu")
        comment = "// a reviewer's note added to the template"
        with open(template, "a", encoding="utf-8") as f:
            f.write(comment + "\n")

        result = self.gen("--check")
        self.assertExit(result, 1)
        self.assertIn("\n+" + comment + "\n", result.stdout)
        # Only the files made from that template are stale.
        named = re.findall(r"^--- generated/(\S+)", result.stdout, re.M)
        self.assertEqual(sorted(named), sorted(n for n in read_tree(self.generated) if n.endswith("_sweep.cu")))

    def test_stray_file_in_generated(self):
        with open(os.path.join(self.generated, "stray_sweep.cu"), "w", encoding="utf-8") as f:
            f.write("// left behind\n")
        result = self.gen("--check")
        self.assertExit(result, 1)
        self.assertIn("generated/stray_sweep.cu is not produced by btforge-gen", result.stdout)


class SubsetViolation(RepositoryCopy):

    def test_heap_allocation_fails_with_its_location_and_writes_nothing(self):
        path = os.path.join(self.root, STOP_LOSS)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        signature = [i for i, line in enumerate(lines) if "BT_KERNEL inline int evaluate_stop(" in line]
        self.assertEqual(len(signature), 1)
        allocation = "    double* scratch = new double[3];"
        lines.insert(signature[0] + 1, allocation)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        line = signature[0] + 2  # 1-based line of the inserted statement
        column = allocation.index("new") + 1

        before = read_tree(self.generated)
        before_mtimes = mtimes(self.generated)
        for args in ((), ("--check",)):
            with self.subTest(args=args):
                result = self.gen(*args)
                self.assertExit(result, 1)
                self.assertIn("reference/exits/stop_loss.h:%d:%d: heap-allocation:" % (line, column), result.stderr)
                self.assertIn("nothing generated", result.stderr)
                self.assertEqual(result.stdout, "")
                self.assertEqual(read_tree(self.generated), before)
                self.assertEqual(mtimes(self.generated), before_mtimes)


def main():
    global GENERATOR, SOURCE_DIR
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    GENERATOR = os.path.abspath(sys.argv[1])
    SOURCE_DIR = os.path.abspath(sys.argv[2])
    program = unittest.main(argv=[sys.argv[0]] + sys.argv[3:], exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())

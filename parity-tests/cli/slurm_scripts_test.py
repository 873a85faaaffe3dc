#!/usr/bin/env python3
"""scripts/slurm: the job array of shards and the merge job (docs/SCALING.md).

Usage: slurm_scripts_test.py PATH/TO/btforge [unittest options]

A stand-in for `sbatch`, so that the scripts are tested wherever the tests
run (scripts/slurm-check runs them under a real Slurm in CI): it is on PATH
and does
what Slurm would do with these scripts on one node: it records each
submission, runs every task of an --array with SLURM_ARRAY_TASK_ID and
SLURM_CPUS_PER_TASK set (and the --export'ed variables), and runs a job with
--dependency=afterok:ID only when every task of job ID succeeded. The merged
results must be byte-identical to one process; a resubmission must rerun
only the shards whose files are missing.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BTFORGE = None
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SWEEP = ["--synthetic-bars", "3000", "--backend", "cpu", "--param", "ema_fast=8,12,20", "--param", "sl_atr=1.5,3",
         "--param", "mode=0,1", "--walk-forward", "rolling:4", "--pbo"]

FAKE_SBATCH = r'''#!/usr/bin/env python3
import json, os, subprocess, sys
state = os.environ["FAKE_SLURM_STATE"]
with open(state) as f:
    jobs = json.load(f)
args = sys.argv[1:]
options, script = {}, None
while args:
    a = args.pop(0)
    if a.startswith("--") and "=" in a:
        key, value = a[2:].split("=", 1)
        options[key] = value
    elif a == "--parsable":
        options["parsable"] = True
    else:
        script = a
        break
job_id = str(1000 + len(jobs))
env = dict(os.environ)
for item in options.get("export", "ALL").split(",")[1:]:
    key, value = item.split("=", 1)
    env[key] = value
env["SLURM_CPUS_PER_TASK"] = options.get("cpus-per-task", "1")
ok = True
dependency = options.get("dependency")
if dependency:
    needed = dependency.split(":", 1)[1]
    ok = jobs[needed]["ok"]
tasks = []
log = open(state + "." + job_id + ".log", "w")  # Slurm writes a job's output to its --output file
if ok:
    if "array" in options:
        first, last = map(int, options["array"].split("-"))
        for i in range(first, last + 1):
            env["SLURM_ARRAY_TASK_ID"] = str(i)
            tasks.append(subprocess.run(["bash", script, *args], env=env, stdout=log, stderr=log).returncode)
    else:
        tasks.append(subprocess.run(["bash", script, *args], env=env, stdout=log, stderr=log).returncode)
jobs[job_id] = {"script": os.path.basename(script), "args": args, "options": options,
                "ok": ok and all(rc == 0 for rc in tasks), "tasks": tasks}
with open(state, "w") as f:
    json.dump(jobs, f)
print(job_id)
'''


class SlurmScriptsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="btforge-slurm-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        bin_dir = os.path.join(self.dir, "bin")
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, "sbatch"), "w") as f:
            f.write(FAKE_SBATCH)
        os.chmod(os.path.join(bin_dir, "sbatch"), 0o755)
        self.state = os.path.join(self.dir, "jobs.json")
        with open(self.state, "w") as f:
            f.write("{}")
        self.env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], FAKE_SLURM_STATE=self.state)

    def submit(self, n):
        done = subprocess.run([os.path.join(ROOT, "scripts", "slurm", "submit-sweep"), "-n", str(n), "-o", "out",
                               "--btforge", BTFORGE, "--cpus", "2", "--", *SWEEP],
                              cwd=self.dir, env=self.env, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(self.state) as f:
            return done, json.load(f)

    def read(self, name):
        with open(os.path.join(self.dir, name), "rb") as f:
            return f.read()

    def test_array_then_merge_equals_one_process(self):
        subprocess.run([BTFORGE, "sweep", *SWEEP, "-o", "one"], cwd=self.dir, check=True, capture_output=True)
        done, jobs = self.submit(4)
        array, merge = jobs["1000"], jobs["1001"]
        self.assertEqual(array["options"]["array"], "0-3")
        self.assertEqual(array["tasks"], [0, 0, 0, 0])
        self.assertEqual(merge["options"]["dependency"], "afterok:1000")
        self.assertTrue(merge["ok"])
        for suffix in ("csv", "validation.json", "walkforward.csv"):
            self.assertEqual(self.read(f"one.{suffix}"), self.read(f"out/results.{suffix}"), suffix)
        self.assertIn("array job 1000 (4 shards), merge job 1001", done.stdout)

        # A resubmission runs only the missing shard.
        os.remove(os.path.join(self.dir, "out", "shard-2.shard"))
        kept = os.path.getmtime(os.path.join(self.dir, "out", "shard-1.shard"))
        self.submit(4)
        self.assertEqual(os.path.getmtime(os.path.join(self.dir, "out", "shard-1.shard")), kept)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "out", "shard-2.shard")))
        self.assertEqual(self.read("one.csv"), self.read("out/results.csv"))

    def test_a_failed_shard_holds_the_merge(self):
        bad = [*SWEEP, "--backend", "nonsense"]
        done = subprocess.run([os.path.join(ROOT, "scripts", "slurm", "submit-sweep"), "-n", "2", "-o", "out",
                               "--btforge", BTFORGE, "--", *bad], cwd=self.dir, env=self.env, capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(self.state) as f:
            jobs = json.load(f)
        self.assertFalse(jobs["1000"]["ok"])
        self.assertEqual(jobs["1001"]["tasks"], [])  # afterok: never ran
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out", "results.csv")))

    def test_usage(self):
        for args in (["-o", "out"], ["-n", "0", "-o", "out"], ["-n", "2"], ["-o", "out", "-n"], ["-n", "2", "-o"]):
            done = subprocess.run([os.path.join(ROOT, "scripts", "slurm", "submit-sweep"), *args], cwd=self.dir,
                                  env=self.env, capture_output=True, text=True)
            self.assertEqual(done.returncode, 2, args)


if __name__ == "__main__":
    BTFORGE = os.path.abspath(sys.argv.pop(1))
    unittest.main()

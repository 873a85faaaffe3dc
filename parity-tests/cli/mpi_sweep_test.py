#!/usr/bin/env python3
"""btforge sweep --mpi (Note [Sweeps over MPI]): R ranks write what one process writes.

Usage: mpi_sweep_test.py PATH/TO/btforge PATH/TO/mpirun [unittest options]

Three ranks on this machine (oversubscribed, one thread each, the cpu
backend) against one process: the quickstart, and a walk-forward run with
PBO and every row. Then what goes wrong: a rank killed mid-run (the job ends,
no result file, the shards it completed kept) and the resumed run; a rank's
own error named by rank 0; a set-up mistake said once; --mpi with no plugin;
the MPI options without --mpi. And scripts/slurm/btforge-mpi.sbatch under a
stand-in srun that starts its tasks with mpirun, as Slurm would on one node.
"""

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from shard_format import Shard

BTFORGE = None
MPIRUN = None
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# srun as Slurm runs it inside an allocation of SLURM_NTASKS tasks on one
# node: the tasks started by mpirun; its options recorded for the test.
FAKE_SRUN = r'''#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
options = []
while args and args[0].startswith("--"):
    options.append(args.pop(0))
with open(os.environ["FAKE_SRUN_LOG"], "w") as f:
    json.dump({"options": options, "command": args}, f)
mpirun = os.environ["FAKE_SRUN_MPIRUN"]
os.execv(mpirun, [mpirun, "-n", os.environ["SLURM_NTASKS"], "--oversubscribe", *args])
'''
CPU = ["--backend", "cpu", "--threads", "1"]
VALIDATION = ["--walk-forward", "rolling:4", "--pbo", "--cpcv", "--spa", "100", "--returns", "40", "--all-rows"]
RESULTS = ("csv", "validation.json", "walkforward.csv")


def mpi_environment():
    env = dict(os.environ)
    # CI and the fresh-machine check run as root, which Open MPI refuses
    # unless told twice.
    env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


class MpiSweepTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="btforge-mpi-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def command(self, ranks, *args):
        return [MPIRUN, "-n", str(ranks), "--oversubscribe", BTFORGE, "sweep", "--mpi", *args]

    def run_mpi(self, ranks, *args, expect=0):
        done = subprocess.run(self.command(ranks, *args), cwd=self.dir, capture_output=True, text=True,
                              env=mpi_environment(), timeout=240)
        if expect is not None:
            self.assertEqual(done.returncode, expect, done.stderr + done.stdout)
        return done

    def run_btforge(self, *args, expect=0, env=None):
        done = subprocess.run([BTFORGE, *args], cwd=self.dir, capture_output=True, text=True, env=env, timeout=240)
        self.assertEqual(done.returncode, expect, done.stderr + done.stdout)
        return done

    def read(self, name):
        with open(os.path.join(self.dir, name), "rb") as f:
            return f.read()

    def assert_same(self, one, other, suffixes):
        for suffix in suffixes:
            self.assertEqual(self.read(f"{one}.{suffix}"), self.read(f"{other}.{suffix}"), suffix)

    def results_of(self, prefix):
        return sorted(os.path.basename(p) for p in glob.glob(os.path.join(self.dir, prefix + ".*")))

    def test_quickstart_on_three_ranks_is_one_process(self):
        self.run_btforge("sweep", *CPU, "-o", "one")
        done = self.run_mpi(3, *CPU, "-o", "mpi")
        self.assert_same("one", "mpi", ("csv",))
        self.assertIn("mpi: 3 ranks on 1 host, 3 shards merged", done.stdout)
        # Rank 0 alone prints the table and the header.
        self.assertEqual(done.stdout.count("results (20 rows ranked by sharpe)"), 1)
        self.assertEqual(done.stderr.count("btforge sweep: strategy default"), 1, done.stderr)

    def test_walk_forward_on_three_ranks_is_one_process_and_resumes(self):
        self.run_btforge("sweep", *CPU, *VALIDATION, "-o", "one")
        self.run_mpi(3, *CPU, *VALIDATION, "--mpi-shards", "7", "--checkpoint", "ck", "-o", "mpi")
        self.assert_same("one", "mpi", RESULTS)
        self.assertEqual(len(glob.glob(os.path.join(self.dir, "ck", "shard-*-of-7.shard"))), 7)
        # Another number of ranks takes every shard from the checkpoints.
        done = self.run_mpi(2, *CPU, *VALIDATION, "--mpi-shards", "7", "--checkpoint", "ck", "-o", "again")
        self.assertIn("resumed 7 of 7 shards from ck", done.stdout)
        self.assert_same("one", "again", RESULTS)

    def rank_process(self, rank):
        """The pid of this test's btforge process of MPI rank `rank`, or None."""
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                if os.readlink(f"/proc/{pid}/cwd") != self.dir:
                    continue
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environ = f.read().split(b"\0")
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if argv and os.path.basename(argv[0]) == b"btforge" and f"OMPI_COMM_WORLD_RANK={rank}".encode() in environ:
                return int(pid)
        return None

    def test_rank_killed_mid_run_leaves_no_result_and_the_run_resumes(self):
        self.run_btforge("sweep", *CPU, *VALIDATION, "-o", "one")
        shards = ["--mpi-shards", "30", "--checkpoint", "ck"]
        job = subprocess.Popen(self.command(3, *CPU, *VALIDATION, *shards, "-o", "killed"), cwd=self.dir,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=mpi_environment())
        # Rank 1 runs shards 1, 4, 7, ...: kill it once its first is done.
        first = os.path.join(self.dir, "ck", "shard-01-of-30.shard")
        deadline = time.monotonic() + 120
        while not os.path.exists(first) and time.monotonic() < deadline and job.poll() is None:
            time.sleep(0.01)
        self.assertTrue(os.path.exists(first), "rank 1 completed no shard")
        victim = self.rank_process(1)
        self.assertIsNotNone(victim, "rank 1's process not found")
        os.kill(victim, signal.SIGKILL)
        out, err = job.communicate(timeout=120)
        self.assertNotEqual(job.returncode, 0, err)
        self.assertIn("rank 1", err)
        self.assertIn("signal 9", err)
        self.assertEqual(self.results_of("killed"), [], "a result file of a run that lost a rank")
        kept = sorted(glob.glob(os.path.join(self.dir, "ck", "shard-*-of-30.shard")))
        self.assertGreater(len(kept), 0)
        self.assertLess(len(kept), 30, "the run finished before rank 1 was killed: the test proves nothing")
        before = {path: open(path, "rb").read() for path in kept}
        done = self.run_mpi(3, *CPU, *VALIDATION, *shards, "-o", "resumed")
        self.assertIn(f"resumed {len(kept)} of 30 shards from ck", done.stdout)
        self.assert_same("one", "resumed", RESULTS)
        for path, content in before.items():
            self.assertEqual(open(path, "rb").read(), content, f"{path} was rewritten")

    def test_a_rank_error_is_named_by_rank_0(self):
        # Shard 2's checkpoint is a shard of another run (another taker fee).
        os.mkdir(os.path.join(self.dir, "ck"))
        self.run_btforge("sweep", *CPU, "--taker-fee", "0.001", "--shard", "2/3", "-o", "ck/shard-2-of-3")
        done = self.run_mpi(3, *CPU, "--checkpoint", "ck", "-o", "foreign", expect=None)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("rank 2 of 3", done.stderr)
        self.assertIn("ck/shard-2-of-3.shard is a shard of another run (its account", done.stderr)
        self.assertIn("no result file written", done.stderr)
        self.assertEqual(self.results_of("foreign"), [])

    def test_a_checkpoint_gets_the_checks_of_merge(self):
        # Note [Shard files]: a checkpoint edited since it was written is
        # refused by the rank that takes it; one whose checksums were made
        # to match, by rank 0's checks of the rows (issue 29).
        self.run_mpi(3, *CPU, "--mpi-shards", "3", "--checkpoint", "ck", "-o", "first")
        path = os.path.join(self.dir, "ck", "shard-1-of-3.shard")
        intact = Shard.read(path)
        edited = Shard.read(path)
        edited.set_sharpe(0, 99.0)
        edited.keep_digests = True
        edited.write(path)
        done = self.run_mpi(3, *CPU, "--mpi-shards", "3", "--checkpoint", "ck", "-o", "edited", expect=None)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("rank 1 of 3", done.stderr)
        self.assertIn("ck/shard-1-of-3.shard: shard-checksum: its rows section does not match its SHA-256",
                      done.stderr)
        self.assertEqual(self.results_of("edited"), [])
        intact.set_row_id(0, intact.row_id(0) + 10**6)
        intact.write(path)
        done = self.run_mpi(3, *CPU, "--mpi-shards", "3", "--checkpoint", "ck", "-o", "foreign", expect=None)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("ck/shard-1-of-3.shard: rows section: row 0 has combination id", done.stderr)
        self.assertEqual(self.results_of("foreign"), [])
        done = self.run_mpi(2, *CPU, "--mpi-shards", "1000000", "-o", "many", expect=None)
        self.assertNotEqual(done.returncode, 0)
        self.assertEqual(done.stderr.count("--mpi-shards 1000000: at most 100000 shards"), 1, done.stderr)

    def test_a_set_up_mistake_stops_every_rank_and_is_said_once(self):
        done = self.run_mpi(3, *CPU, "--mpi-shards", "2", "-o", "few", expect=None)
        self.assertNotEqual(done.returncode, 0)
        self.assertEqual(done.stderr.count("--mpi-shards 2 is fewer than the 3 ranks"), 1, done.stderr)
        self.assertEqual(self.results_of("few"), [])
        done = self.run_mpi(2, *CPU, "-o", "missing/out", expect=None)
        self.assertNotEqual(done.returncode, 0)
        self.assertEqual(done.stderr.count("missing"), 1, done.stderr)

    def test_a_rank_bound_to_one_core_runs_one_thread_and_says_so(self):
        # Note [Threads a process may use]: a rank bound to one core (Open MPI
        # does so with two ranks or fewer) takes one thread, not the node's.
        if (os.cpu_count() or 1) < 2:
            self.skipTest("one CPU: a binding cannot take any away")
        done = subprocess.run([MPIRUN, "-n", "1", "--bind-to", "core", BTFORGE, "sweep", "--mpi", "--backend", "cpu",
                               "-o", "bound"], cwd=self.dir, capture_output=True, text=True, env=mpi_environment(),
                              timeout=240)
        self.assertEqual(done.returncode, 0, done.stderr + done.stdout)
        self.assertIn(f"rank 0 may run on 1 of the node's {os.cpu_count()} CPUs", done.stderr)
        self.assertIn("`mpirun --bind-to none`", done.stderr)
        with open(os.path.join(self.dir, "bound.json")) as f:
            self.assertIn("shard 0 ran on cpu (1 thread)", json.load(f)["backend"])

    def test_slurm_srun_script(self):
        self.run_btforge("sweep", *CPU, *VALIDATION, "-o", "one")
        bin_dir = os.path.join(self.dir, "bin")
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, "srun"), "w") as f:
            f.write(FAKE_SRUN)
        os.chmod(os.path.join(bin_dir, "srun"), 0o755)
        log = os.path.join(self.dir, "srun.json")
        env = dict(mpi_environment(), PATH=bin_dir + os.pathsep + os.environ["PATH"], FAKE_SRUN_LOG=log,
                   FAKE_SRUN_MPIRUN=MPIRUN, SLURM_NTASKS="3", SLURM_CPUS_PER_TASK="1", BTFORGE=BTFORGE)
        script = os.path.join(ROOT, "scripts", "slurm", "btforge-mpi.sbatch")
        done = subprocess.run(["bash", script, "out", "--backend", "cpu", *VALIDATION], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=240)
        self.assertEqual(done.returncode, 0, done.stderr + done.stdout)
        with open(log) as f:
            srun = json.load(f)
        self.assertIn("--gpus-per-task=1", srun["options"])
        self.assertIn("--mpi=pmix", srun["options"])
        self.assertEqual(srun["command"][:3], [BTFORGE, "sweep", "--mpi"])
        self.assert_same("one", "out/results", RESULTS)
        # Four shards per rank, checkpointed: a rerun (a requeued job) resumes.
        self.assertEqual(len(glob.glob(os.path.join(self.dir, "out", "checkpoints", "*.shard"))), 12)
        done = subprocess.run(["bash", script, "out", "--backend", "cpu", *VALIDATION], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=240)
        self.assertEqual(done.returncode, 0, done.stderr + done.stdout)
        self.assertIn("resumed 12 of 12 shards", done.stdout)
        done = subprocess.run(["bash", script, "out"], cwd=self.dir, capture_output=True, text=True,
                              env={k: v for k, v in env.items() if k != "SLURM_NTASKS"})
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("SLURM_NTASKS is not set", done.stderr)

    def test_without_the_plugin_or_without_mpi(self):
        env = dict(os.environ, BTFORGE_MPI_PLUGIN=os.path.join(self.dir, "nowhere.so"))
        done = self.run_btforge("sweep", "--mpi", "-o", "x", expect=1, env=env)
        self.assertIn("BTFORGE_MPI_PLUGIN names", done.stderr)
        done = self.run_btforge("sweep", "--checkpoint", "ck", "-o", "x", expect=2)
        self.assertIn("--checkpoint belongs to an MPI run: add --mpi", done.stderr)
        done = self.run_btforge("sweep", "--mpi", "--shard", "0/2", "-o", "x", expect=2)
        self.assertIn("--shard is for runs without MPI", done.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    BTFORGE = os.path.abspath(sys.argv.pop(1))
    MPIRUN = sys.argv.pop(1)
    unittest.main()

#!/usr/bin/env python3
"""scripts/release (Note [One version]): a release writes the version into
its one place, dates the changelog's section, commits and tags vVERSION on
that commit; it refuses a changed tree, an existing tag and a version that
is not X.Y.Z; `--check` fails on a tag whose commit says another version.
Run on a copy of the repository's CMakeLists.txt and CHANGELOG.md in a
temporary git repository.

Usage: release_test.py PATH/TO/btforge [unittest options]
"""

import datetime
import os
import re
import shutil
import subprocess
import sys  # noqa: F401 (e2e.main reads sys.argv)

import cli_end_to_end as e2e

RELEASE = os.path.join(e2e.ROOT, "scripts", "release")
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


class Release(e2e.CliTestCase):
    def setUp(self):
        super().setUp()
        if not shutil.which("git"):
            self.fail("git is needed (scripts/install-deps --test installs it)")
        self.repo = self.path("repo")
        os.makedirs(os.path.join(self.repo, "scripts"))
        for name in ("CMakeLists.txt", "CHANGELOG.md"):
            shutil.copy(os.path.join(e2e.ROOT, name), self.repo)
        shutil.copy(RELEASE, os.path.join(self.repo, "scripts"))
        self.current = re.search(r"^project\(btforge VERSION ([0-9.]+)", self.read("CMakeLists.txt"), re.M).group(1)
        self.git("init", "-q", "-b", "main")
        self.git("add", ".")
        self.git("commit", "-q", "-m", "start")

    def read(self, name):
        with open(os.path.join(self.repo, name), encoding="utf-8") as f:
            return f.read()

    def git(self, *args):
        return subprocess.run(["git", *args], cwd=self.repo, capture_output=True, text=True, check=True,
                              env={**os.environ, **GIT_ENV}).stdout

    def release(self, *args, expect=0):
        p = subprocess.run([os.path.join(self.repo, "scripts", "release"), *args], cwd=self.repo,
                           capture_output=True, text=True, env={**os.environ, **GIT_ENV})
        self.assertEqual(p.returncode, expect, p.stderr)
        return p.stderr

    def test_a_release_tags_the_commit_of_its_version(self):
        self.assertIn("(0 tags)", self.release("--check"))
        self.assertIn("## %s (unreleased)" % self.current, self.read("CHANGELOG.md"))
        self.release("9.8.7")
        today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        self.assertIn("project(btforge VERSION 9.8.7 ", self.read("CMakeLists.txt"))
        self.assertIn("\n## 9.8.7 (%s)\n" % today, self.read("CHANGELOG.md"))
        self.assertNotIn("(unreleased)", self.read("CHANGELOG.md").split("\n## ", 2)[1])
        self.assertEqual(self.git("rev-parse", "v9.8.7^{commit}"), self.git("rev-parse", "HEAD"))
        self.assertIn("project(btforge VERSION 9.8.7 ", self.git("show", "v9.8.7:CMakeLists.txt"))
        self.assertEqual(self.git("status", "--porcelain", "--untracked-files=no"), "")
        self.assertIn("(1 tags)", self.release("--check"))

    def test_what_it_refuses(self):
        self.assertIn("must be X.Y.Z", self.release("1.2", expect=2))
        with open(os.path.join(self.repo, "CMakeLists.txt"), "a") as f:
            f.write("# changed\n")
        self.assertIn("has changes", self.release("9.8.7", expect=1))
        self.git("checkout", "-q", "CMakeLists.txt")
        self.release("9.8.7")
        self.assertIn("exists already", self.release("9.8.7", expect=1))
        # The next section is not written yet: the changelog's first section is the released one.
        self.assertIn("first section", self.release("9.8.8", expect=1))

    def test_check_names_a_tag_of_another_version(self):
        self.git("tag", "v0.0.9")
        self.assertIn("tag v0.0.9 names", self.release("--check", expect=1))


if __name__ == "__main__":
    e2e.main()

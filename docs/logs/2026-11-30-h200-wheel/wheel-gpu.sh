#!/usr/bin/env bash
# Issue 34, item 1: the portable wheel on the GPU machine (another
# distribution, Python 3.12), installed with pip and nothing built there.
# btforge.sweep(backend="cuda") against the wheel's own command line on the
# CPU reference and on cuda, row for row, with its validation; the package,
# the command line and the JSON name one version and commit; the wheel
# carries the kernels. Run from the repository root with .whl/ holding the
# cp312-abi3 wheel (scripts/build-wheels) and plotly's (the machine has
# numpy, pandas and narwhals, not plotly).
set -uo pipefail
out=${OUT:-/tmp/wheel-gpu}
mkdir -p "$out"
{
  echo "== machine"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  grep -E '^(PRETTY_NAME)=' /etc/os-release
  ldd --version | head -n 1
  python3 --version
  echo "== pip install (no index, nothing compiled)"
  ls -l .whl/
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site
  cli=/tmp/site/btforge.scripts/btforge  # the wheel's command (its launcher looks in the system's site-packages)
  python3 -c "import btforge, json; print('build_info', json.dumps(btforge.build_info()))"
  "$cli" --version
  "$cli" devices
  echo "== equals_cli.py --backend cuda --kernels"
  mkdir -p /tmp/eq
  PYTHONUNBUFFERED=1 python3 python/tests/equals_cli.py --backend cuda --kernels "$cli" /tmp/eq
  echo "exit status $?"
} 2>&1 | tee "$out/wheel-gpu.log"

#!/usr/bin/env python3
"""Checks that nvcc put a cubin per listed architecture and the PTX into every fatbin.

    check_fatbins.py --root SOURCE_DIR --kernels BUILD_DIR/kernels [--cuobjdump PATH]

The expected contents come from spec/generator.json, as cmake/BtforgeGenerated.cmake
reads it: one <strategy>_sweep.fatbin per strategy (the "strategy" name of its
spec), with an ELF cubin for each cuda.architectures entry (sm_80, ...) and PTX
for cuda.ptx (compute_90). The fatbins are listed with `cuobjdump --list-elf`
and `cuobjdump --list-ptx`; where cuobjdump is not installed (nvcc without the
rest of the toolkit), the fatbin container's entry headers are read directly
(kind 1 = PTX, 2 = ELF; the architecture is the entry's sm version).

Registered with CTest as cuda_fatbins, only where nvcc is found.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX = 1
KIND_ELF = 2


def expected(root, strategies):
    """The strategies come from the build (Note [Strategy discovery])."""
    with open(os.path.join(root, "spec", "generator.json"), encoding="utf-8") as f:
        config = json.load(f)
    names = [name for name in strategies.split(",") if name]
    cubins = set(config["cuda"]["architectures"])
    ptx = {config["cuda"]["ptx"].replace("compute_", "sm_")}  # cuobjdump names PTX by sm_
    return names, cubins, ptx


def list_with_cuobjdump(cuobjdump, fatbin):
    """({sm_XX of each ELF}, {sm_XX of each PTX}) as cuobjdump lists them."""
    found = []
    for option in ("--list-elf", "--list-ptx"):
        result = subprocess.run([cuobjdump, option, fatbin], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True)
        if result.returncode != 0:
            raise RuntimeError("%s %s %s failed (%d):\n%s%s" %
                               (cuobjdump, option, fatbin, result.returncode, result.stdout, result.stderr))
        print("$ cuobjdump %s %s\n%s" % (option, os.path.basename(fatbin), result.stdout.rstrip()))
        found.append(set(re.findall(r"\.(sm_[0-9]+[a-z]?)\.(?:cubin|ptx)\b", result.stdout)))
    return found[0], found[1]


def list_from_container(fatbin):
    """Reads the fatbin container: a 16-byte header (magic, version, header
    size, size of the entries) and entries each starting with a header (kind,
    version, header size, padded payload size, ..., sm version at byte 28)."""
    with open(fatbin, "rb") as f:
        data = f.read()
    elf, ptx = set(), set()
    offset = 0
    while offset + 16 <= len(data):
        magic, _version, header_size, entries_size = struct.unpack_from("<IHHQ", data, offset)
        if magic != FATBIN_MAGIC:
            raise RuntimeError("%s: no fatbin magic at byte %d" % (fatbin, offset))
        entry = offset + header_size
        end = entry + entries_size
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            (arch,) = struct.unpack_from("<I", data, entry + 28)
            name = "sm_%d" % arch
            if kind == KIND_ELF:
                elf.add(name)
            elif kind == KIND_PTX:
                ptx.add(name)
            print("  entry at %d: %s %s" % (entry, {KIND_ELF: "ELF", KIND_PTX: "PTX"}.get(kind, kind), name))
            entry += entry_header + payload
        offset = end
    return elf, ptx


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--cuobjdump")
    parser.add_argument("--strategies", required=True, help="the strategy names, comma-separated")
    args = parser.parse_args()

    names, cubins, ptx = expected(args.root, args.strategies)
    print("expected per fatbin: cubins %s, PTX %s" % (" ".join(sorted(cubins)), " ".join(sorted(ptx))))
    if not args.cuobjdump:
        print("cuobjdump not found: reading the fatbin containers directly")
    failures = []
    for name in names:
        fatbin = os.path.join(args.kernels, name + "_sweep.fatbin")
        if not os.path.isfile(fatbin):
            failures.append("%s: missing (was the build run with nvcc?)" % fatbin)
            continue
        try:
            if args.cuobjdump:
                elf, found_ptx = list_with_cuobjdump(args.cuobjdump, fatbin)
            else:
                print("%s:" % os.path.basename(fatbin))
                elf, found_ptx = list_from_container(fatbin)
        except (RuntimeError, struct.error) as e:
            failures.append(str(e))
            continue
        if not cubins <= elf:
            failures.append("%s: no cubin for %s (has %s)" %
                            (fatbin, " ".join(sorted(cubins - elf)), " ".join(sorted(elf)) or "none"))
        if not ptx <= found_ptx:
            failures.append("%s: no PTX for %s (has %s)" %
                            (fatbin, " ".join(sorted(ptx - found_ptx)), " ".join(sorted(found_ptx)) or "none"))
    for failure in failures:
        print("FAIL: " + failure)
    if not failures:
        print("OK: %d fatbins, each with cubins %s and PTX %s" %
              (len(names), " ".join(sorted(cubins)), " ".join(sorted(ptx))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

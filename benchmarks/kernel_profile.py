"""Where the double-dummy kernel's time goes, by compiled function, sampled with ``perf``.

Numba's machine code carries no symbols ``perf`` can read, so this finds them itself: the
object code of the search is in numba's cache (``kernel._search-*.nbc``), ``nm`` lists its
functions with their sizes, and numba's library gives each one's address in the running
process. Every sample is put in the function whose code holds it; functions inlined into
another (``kernel.inline``, and whatever LLVM inlines) count as the one they sit in.
Samples outside the kernel (Python, the start-up) are left out of the shares.

The workload is ``benchmarks/solver.py``'s positions (``--cards 13`` bridge positions by
default, or ``--threeb`` for 3B's 17-card one-seat searches), each solved from an empty
table, after one warm-up solve (which compiles the kernel if it is not cached).

Run: ``.venv/bin/python benchmarks/kernel_profile.py [--cards N] [--positions N]
[--threeb] [--top N]``. It needs Linux's ``perf`` (its ``cpu-clock`` event: no hardware
counters needed) and binutils' ``nm``, and takes a few seconds more than the solves.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import glob
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from solver import STRAINS, leader_side  # the positions benchmarks/solver.py makes
from tricktable.search.position import position_of
from tricktable.search.random_positions import random_bridge_position, random_play_state
from tricktable.search.solver import Solver

ELF_MAGIC = b"\x7fELF"


def search_object_code(kernel: ModuleType) -> bytes:
    """The ELF object holding the compiled search and everything it calls, from numba's
    cache file for ``_search`` (named by the line it starts on: older ones may be there)."""
    search = kernel._search
    cache_dir = search._cache._cache_path
    line = search.py_func.__code__.co_firstlineno
    files = glob.glob(os.path.join(cache_dir, f"kernel._search-{line}.*.nbc"))
    if not files:
        sys.exit(f"no cached kernel in {cache_dir}: solve something once first")
    data = Path(max(files, key=os.path.getmtime)).read_bytes()
    start = data.find(ELF_MAGIC)
    if start < 0:
        sys.exit("numba's cache file holds no object code (a numba version this does not know)")
    elf = data[start:]
    # the section headers end the object: e_shoff, then e_shentsize * e_shnum
    (section_headers,) = struct.unpack_from("<Q", elf, 0x28)
    entry_size, entries = struct.unpack_from("<HH", elf, 0x3A)
    return elf[: section_headers + entry_size * entries]


def function_map(kernel: ModuleType, out: Path) -> None:
    """Write "address size name" for every compiled kernel function, in this process."""
    with tempfile.NamedTemporaryFile(suffix=".o") as obj:
        obj.write(search_object_code(kernel))
        obj.flush()
        listing = subprocess.run(["nm", "--defined-only", "-S", obj.name],
                                 capture_output=True, text=True, check=True).stdout
    library = next(iter(kernel._search.overloads.values())).library
    rows = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[2] not in "tTwW":
            continue
        try:
            address = library.get_pointer_to_function(parts[3])
        except Exception:  # a symbol the library does not export
            continue
        if address:
            named = re.search(r"kernel\d+(\w+?)B\d", parts[3])
            name = named.group(1) if named else parts[3][:40]
            if parts[3].startswith("_ZN7cpython"):
                name = "(python wrapper) " + name
            rows.append(f"{address:x} {int(parts[1], 16)} {name}")
    out.write_text("\n".join(rows) + "\n")


def run_workload(args: argparse.Namespace, map_file: Path) -> None:
    from tricktable.search import kernel

    rng = random.Random(args.seed)
    if args.threeb:
        positions = [position_of(random_play_state("3b-spades", {"players": 3}, rng, 17, False))
                     for _ in range(args.positions)]
        sides = [1 << p.to_act for p in positions]
    else:
        positions = [random_bridge_position(rng, args.cards, STRAINS[i % len(STRAINS)])
                     for i in range(args.positions)]
        sides = [leader_side(p) for p in positions]
    solver = Solver()
    solver.tricks(positions[0], sides[0])  # compiled or loaded from the cache
    function_map(kernel, map_file)
    for pos, side in zip(positions, sides, strict=True):
        solver.forget()
        solver.tricks(pos, side)


def shares(map_file: Path, samples: list[int]) -> tuple[collections.Counter[str], int]:
    rows = sorted((line.split(maxsplit=2) for line in map_file.read_text().splitlines()),
                  key=lambda row: int(row[0], 16))
    starts = [int(a, 16) for a, _, _ in rows]
    ends = [int(a, 16) + int(size) for a, size, _ in rows]
    names = [name for _, _, name in rows]
    counts: collections.Counter[str] = collections.Counter()
    for ip in samples:
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and ip < ends[i]:
            counts[names[i]] += 1
    return counts, len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=13, help="cards a hand (bridge positions)")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--threeb", action="store_true",
                        help="3B's 17-card positions, one seat against the others")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--top", type=int, default=20, help="functions shown")
    parser.add_argument("--child", metavar="MAP", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 1 <= args.cards <= 13 or args.positions < 1:
        parser.error("--cards is 1 to 13 and --positions at least 1")
    if args.child:
        run_workload(args, Path(args.child))
        return
    for tool in ("perf", "nm"):
        if shutil.which(tool) is None:
            sys.exit(f"kernel_profile needs `{tool}` on the PATH")
    with tempfile.TemporaryDirectory() as tmp:
        map_file, data = Path(tmp) / "functions", Path(tmp) / "perf.data"
        child = [sys.executable, __file__, "--child", str(map_file), "--cards", str(args.cards),
                 "--positions", str(args.positions), "--seed", str(args.seed)]
        if args.threeb:
            child.append("--threeb")
        recorded = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "5000",
                                   "-o", str(data), "--", *child], capture_output=True, text=True)
        if recorded.returncode != 0 or not map_file.exists():
            sys.exit("perf record failed: " + (recorded.stderr.strip().splitlines() or ["?"])[-1])
        script = subprocess.run(["perf", "script", "-F", "ip", "-i", str(data)],
                                capture_output=True, text=True, check=True).stdout
        samples = [int(word, 16) for word in script.split()]
        counts, total = shares(map_file, samples)
    in_kernel = sum(counts.values())
    if not in_kernel:
        sys.exit("no samples fell in the kernel")
    what = "3B 17-card" if args.threeb else f"{args.cards}-card bridge"
    print(f"{args.positions} {what} positions: {in_kernel} of {total} samples in the kernel "
          f"({100 * in_kernel / total:.0f}%; the rest is Python and the start-up)")
    for name, count in counts.most_common(args.top):
        print(f"{100 * count / in_kernel:6.1f}%  {name}")


if __name__ == "__main__":
    main()

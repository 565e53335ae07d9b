"""Where a system's RK4 step spends its time, by machine code: bench_system.py's deck
(three lines to a free point in MoorDyn's sea, N segments per line), its compiled RK4 loop
run for a few seconds under Linux ``perf record``; the samples are binned by their offset in
the loop's machine code (read from memory: numba's JIT code has no symbols perf can see)
and by the compiled functions laid out there (split at ``ret`` and padding; ``objdump``
disassembles). Printed: each function's share of the loop's samples, its size and its
256-bit vector instructions (ymm: the vectorised element and node loops), then the hottest
512-byte windows with their commonest instructions (``push``/``mov`` runs: arguments
copied for a call; ``cmov``/``sar``: index and slice arithmetic). Reading it needs the
source: which function is which is told by its calls and instructions, not by name.

Usage (needs ``perf`` and ``objdump``)::

    python benchmarks/profile_system_step.py [N] [--seconds S]
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

CODE_BYTES = 400_000  # the loop's code and the functions laid out after it


def child(n: int, out: Path, seconds: float) -> None:
    """Build the deck's system, write the loop's code bytes and address, run it."""
    import numpy as np
    from bench_system import DT, deck_text

    from tetherdyn.case import CaseWarning
    from tetherdyn.integrate.explicit import RK4Workspace, compiled_loop, rk4_chunk
    from tetherdyn.models.system_model import build_system
    from tetherdyn.moordyn_input import moordyn_to_system
    from tetherdyn.system_case import load_system

    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "deck.txt"
        deck.write_text(deck_text(n))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CaseWarning)
            case = load_system(moordyn_to_system(deck, duration=0.2, output_interval=0.2))
    model = build_system(case)
    y0 = model.initial_state()
    ws = RK4Workspace(y0.size)
    Y = np.empty((1, y0.size))
    ws.run(model, model.make_data(), 0.0, DT, 0, 10, 1, y0.copy(), Y)
    cres = next(iter(compiled_loop(rk4_chunk, model).overloads.values()))
    addr = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    (out / "addr").write_text(f"{addr:x}\n")
    (out / "code.bin").write_bytes(ctypes.string_at(addr, CODE_BYTES))
    t0, best = time.perf_counter(), float("inf")
    while time.perf_counter() - t0 < seconds:
        y, d = y0.copy(), model.make_data()
        c0 = time.thread_time()
        ws.run(model, d, 0.0, DT, 0, 2000, 1, y, Y)
        best = min(best, time.thread_time() - c0)
    (out / "step_us").write_text(f"{best / 2000 * 1e6:.2f}\n")


def _instructions(code: Path) -> list[tuple[int, str]]:
    text = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", str(code)],
                          capture_output=True, text=True, check=True).stdout
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(.*)", line)
        if m and m.group(3).strip():
            out.append((int(m.group(1), 16), m.group(3).strip()))
    return out


def _functions(ins: list[tuple[int, str]]) -> list[int]:
    """Start offsets: the first 16-byte aligned ``push`` after a ``ret`` and padding."""
    pads = ("nop", "cs nop", "data16", "xchg   %ax,%ax", "int3", "(bad)", "add    %al,(%rax)")
    starts, after_ret, padded = [0], False, False
    for off, txt in ins:
        if after_ret and txt.startswith(pads):
            padded = True
            continue
        if padded and off % 16 == 0 and txt.startswith("push"):
            starts.append(off)
        after_ret, padded = txt == "ret", False
    return starts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("n", nargs="?", type=int, default=40, help="segments per line")
    p.add_argument("--seconds", type=float, default=6.0)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args.n, Path(args.child), args.seconds)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        data = out / "perf.data"
        subprocess.run(["perf", "record", "-q", "-o", str(data), sys.executable, __file__,
                        str(args.n), "--seconds", str(args.seconds), "--child", str(out)],
                       check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                           [str(Path(__file__).parent), *sys.path])})
        base = int((out / "addr").read_text(), 16)
        ips = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"],
                             capture_output=True, text=True, check=True).stdout.split()
        hist = collections.Counter()
        for ip in ips:
            off = int(ip, 16) - base
            if 0 <= off < CODE_BYTES:
                hist[off] += 1
        ins = _instructions(out / "code.bin")
        step = (out / "step_us").read_text().strip()
    total = sum(hist.values())
    print(f"3 x {args.n}: best {step} µs per step; {total} of {len(ips)} samples in the "
          f"loop's code; load average {os.getloadavg()[0]:.1f}")
    starts = _functions(ins) + [CODE_BYTES]
    print("function (offset, instructions): share of the loop's samples, ymm instructions")
    for a, b in zip(starts, starts[1:], strict=False):
        s = sum(v for k, v in hist.items() if a <= k < b)
        if s < 0.003 * total:
            continue
        body = [t for o, t in ins if a <= o < b]
        print(f"  {a:#7x} ({len(body)}): {100 * s / total:5.1f} %, "
              f"{sum('ymm' in t for t in body)} ymm")
    windows = collections.Counter()
    for k, v in hist.items():
        windows[k // 512] += v
    print("hottest 512-byte windows: share, commonest instructions")
    for w, v in windows.most_common(12):
        ops = collections.Counter(t.split()[0] for o, t in ins if w * 512 <= o < (w + 1) * 512)
        print(f"  {w * 512:#7x}: {100 * v / total:4.1f} %  "
              + ", ".join(f"{op} {c}" for op, c in ops.most_common(5)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

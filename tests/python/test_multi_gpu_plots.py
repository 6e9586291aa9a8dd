"""experiments/plot_multi_gpu.py on the stored results: one scaling figure per stored scaling run
(multi_gpu_<GPU>_x<count>.json) and none for the other multi-GPU records beside them (an ncu
profile of a run has other fields); the script exits 0 either way. Exits 77 (skipped) without
matplotlib.
usage: python3 tests/python/test_multi_gpu_plots.py"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from checks import FAILURES, check

try:
    import matplotlib  # noqa: F401
except ImportError:
    print("no matplotlib: skipped")
    sys.exit(77)

root = pathlib.Path(__file__).resolve().parents[2]
stored = root / "experiments" / "results"
scaling = [p for p in stored.glob("multi_gpu_*.json") if re.fullmatch(r"multi_gpu_[A-Za-z0-9]+_x\d+\.json", p.name)]
check(len(scaling) >= 1, f"a stored scaling run to draw ({len(scaling)})")
with tempfile.TemporaryDirectory() as tmp:
    results, out = pathlib.Path(tmp) / "results", pathlib.Path(tmp) / "out"
    results.mkdir()
    for p in scaling:
        shutil.copy(p, results / p.name)
    # A record that is not a scaling run, named like one of the stored ncu profiles.
    (results / "multi_gpu_first_start_ncu_X_x2.json").write_text(json.dumps({"kernels": [{"name": "k"}]}))
    run = subprocess.run([sys.executable, str(root / "experiments" / "plot_multi_gpu.py"), "--results", str(results),
                          "--out", str(out)], capture_output=True, text=True)
    check(run.returncode == 0, f"plot_multi_gpu.py exits 0 (got {run.returncode}: {run.stderr.strip()[-300:]})")
    for p in scaling:
        stem = "multi_gpu_scaling_" + p.stem[len("multi_gpu_"):]
        check((out / f"{stem}.png").is_file(), f"{stem}.png drawn")
    check(not list(out.glob("multi_gpu_scaling_first_start*")), "no figure for the non-scaling record")
sys.exit(1 if FAILURES else 0)

"""experiments/ncu_stalls.py and experiments/graph_breakdown.py on synthetic Nsight Compute CSVs
(random metrics, the program's own lines before ncu's header): each launch's fields and stall
shares (`selected` left out, the shares summing to 100), the labels, the kernel families and
their sums against sums computed here, and bad input refused with a one-line error.
usage: python3 tests/python/test_ncu_scripts.py"""
import csv
import io
import json
import pathlib
import random
import subprocess
import sys
import tempfile

EXPERIMENTS = pathlib.Path(__file__).resolve().parents[2] / "experiments"
sys.path.insert(0, str(EXPERIMENTS))
import graph_breakdown as gb  # noqa: E402
import ncu_stalls as ns  # noqa: E402
from checks import FAILURES, check  # noqa: E402

REASONS = ["barrier", "long_scoreboard", "short_scoreboard", "wait", "selected", "not_selected"]


def ncu_csv(launches):
    """An ncu `--csv --page raw` file: program output, header, units row, one row per launch."""
    cols = ["ID", "Kernel Name"] + list(ns.METRICS) + [ns.STALL_PREFIX + r + ns.STALL_SUFFIX for r in REASONS]
    out = io.StringIO()
    out.write("==PROF== Connected to process 1\nsome program output, with, commas\n")
    w = csv.writer(out, quoting=csv.QUOTE_ALL)
    w.writerow(cols)
    w.writerow(["", ""] + ["unit"] * (len(cols) - 2))
    for i, l in enumerate(launches):
        w.writerow([i, l["name"]] + [f"{l['metrics'][m]:,.2f}" for m in ns.METRICS] +
                   [f"{l['stalls'][r]:.3f}" for r in REASONS])
    return out.getvalue()


def random_launch(rng, name):
    metrics = {m: rng.uniform(1, 1e8) for m in ns.METRICS}
    metrics["gpu__time_duration.sum"] = rng.uniform(1e3, 1e6)
    return {"name": name, "metrics": metrics, "stalls": {r: rng.uniform(0, 20) for r in REASONS}}


def run(script, *args):
    return subprocess.run([sys.executable, str(EXPERIMENTS / script), *args], capture_output=True, text=True)


rng = random.Random()
seed = rng.randrange(2 ** 32)
rng.seed(seed)
print(f"seed {seed}")
with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    # ncu_stalls.py: every launch's fields and shares.
    launches = [random_launch(rng, f"void k{i}<float>(int)") for i in range(rng.randint(1, 6))]
    (tmp / "a.csv").write_text(ncu_csv(launches))
    labels = [f"L{i}" for i in range(len(launches))]
    done = run("ncu_stalls.py", "--gpu", "G", "--commit", "c", "--command", "ncu ...", "--out", str(tmp / "a.json"),
               f"{tmp / 'a.csv'}:{','.join(labels)}")
    check(done.returncode == 0, f"ncu_stalls.py runs ({done.stderr.strip()})")
    rows = json.loads((tmp / "a.json").read_text())["rows"] if done.returncode == 0 else []
    check(len(rows) == len(launches), "one row per launch")
    for r, l, label in zip(rows, launches, labels):
        want_total = sum(v for k, v in l["stalls"].items() if k != "selected")
        check(r["label"] == label and r["kernel"] == l["name"], f"{label}: label and kernel")
        check(abs(r["time_ns"] - round(l["metrics"]["gpu__time_duration.sum"], 2)) < 1e-6, f"{label}: time")
        check("selected" not in r["stall_share_pct"], f"{label}: `selected` is not a stall")
        check(abs(r["stall_cycles_per_issue"] - sum(round(v, 3) for k, v in l["stalls"].items() if k != "selected")) < 1e-6,
              f"{label}: stall total")
        check(abs(sum(r["stall_share_pct"].values()) - 100) < 1e-6, f"{label}: shares sum to 100")
        b = round(l["stalls"]["barrier"], 3)
        check(abs(r["stall_share_pct"].get("barrier", 0) - 100 * b / round(want_total, 3)) < 1e-2 or b == 0,
              f"{label}: barrier share")
    # Refused: labels that do not match the launches, a missing file, a file without ncu's header.
    bad = run("ncu_stalls.py", "--gpu", "G", "--commit", "c", "--command", "x", "--out", str(tmp / "b.json"),
              f"{tmp / 'a.csv'}:{','.join(labels + ['extra'])}")
    check(bad.returncode != 0 and "labels" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1, "too many labels refused")
    bad = run("ncu_stalls.py", "--gpu", "G", "--commit", "c", "--command", "x", "--out", str(tmp / "b.json"), str(tmp / "none.csv"))
    check(bad.returncode != 0 and "cannot read" in bad.stderr, "a missing CSV refused in one line")
    (tmp / "plain.csv").write_text("no header here\n")
    bad = run("ncu_stalls.py", "--gpu", "G", "--commit", "c", "--command", "x", "--out", str(tmp / "b.json"), str(tmp / "plain.csv"))
    check(bad.returncode != 0 and "no ncu CSV header" in bad.stderr, "a CSV without ncu's header refused")

    # graph_breakdown.py: families by name, the gather-strided kernel as `stream`.
    check(gb.family_of_kernel("void mmv::gather_strided_impl<long>(...)") == "stream", "gather-strided kernels are stream")
    check(gb.family_of_kernel("void mmv::scatter_impl<long>(...)") == "scatter/gather", "scatter kernels")
    check(gb.family_of_kernel("void mmv::for_each_kernel<mmv::mmu_split<long>>(...)") == "mmu", "MMU helper kernels")
    check(gb.family_of_kernel("sm90_xmma_gemm_f64f64_f64f64_f64_nn_n") == "mmu", "cuBLAS GEMMs are MMU")
    check(gb.family_of_kernel("void mmv::for_each_kernel<mmv::binary<long>>(...)") == "stream", "element-wise kernels")
    check(gb.family_of_class("mmu-word/s53/row") == "mmu" and gb.family_of_class("stream") == "stream", "class families")
    names = ["void mmv::for_each_kernel<mmv::mmu_x>(int)", "sm90_xmma_gemm_f64", "void mmv::gather_strided_impl<long>(int)",
             "void mmv::scatter_impl<long>(int)", "void mmv::compress_impl<long>(int)",
             "void mmv::for_each_kernel<mmv::binary<long>>(int)"]
    seq = [rng.choice(names) for _ in range(rng.randint(4, 30))]
    first = [random_launch(rng, n) for n in seq]
    second = [random_launch(rng, n) for n in seq]
    (tmp / "g.csv").write_text(ncu_csv(first + second))
    classes = ["mmu-word/s53", "mmu-word/s53/row", "stream", "scatter", "compress"]
    instr = [{"op": "load", "class": "load", "predicted_ns": 0.0}] + [
        {"op": "x", "class": rng.choice(classes), "predicted_ns": rng.uniform(1e3, 1e5)} for _ in range(rng.randint(1, 20))]
    report = {"algorithm": "scd", "n": 1000, "s": 53, "executor": "graph", "measured_span_ns": 7.5e5,
              "predicted_serial_ns": 5e5, "instructions": instr}
    (tmp / "run.json").write_text(json.dumps(report))
    done = run("graph_breakdown.py", str(tmp / "run.json"), str(tmp / "g.csv"), "--out", str(tmp / "g_out.csv"))
    check(done.returncode == 0, f"graph_breakdown.py runs ({done.stderr.strip()})")
    got = {r["family"]: r for r in csv.DictReader(open(tmp / "g_out.csv"))} if done.returncode == 0 else {}
    for fam in gb.FAMILIES:
        want_ns = sum(round(l["metrics"]["gpu__time_duration.sum"], 2) for l in second if gb.family_of_kernel(l["name"]) == fam)
        want_pred = sum(i["predicted_ns"] for i in instr[1:] if gb.family_of_class(i["class"]) == fam)
        if fam not in got:
            check(want_ns == 0 and want_pred == 0, f"{fam}: no row where nothing ran or was priced")
            continue
        check(abs(float(got[fam]["kernel_ns"]) - want_ns) < 0.2, f"{fam}: the timed run's kernel time (second half)")
        check(abs(float(got[fam]["predicted_ns"]) - want_pred) < 0.2, f"{fam}: the predicted time of its classes")
    check(float(got.get("all", {}).get("span_ns", 0)) == 7.5e5, "the span beside the kernels' sum")
    # Refused: halves launching different kernels, a run that is not the graph executor's.
    (tmp / "h.csv").write_text(ncu_csv(first + [random_launch(rng, "void another_kernel(int)")] + second[1:]))
    bad = run("graph_breakdown.py", str(tmp / "run.json"), str(tmp / "h.csv"), "--out", str(tmp / "x.csv"))
    check(bad.returncode != 0 and "different kernels" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1,
          "halves launching different kernels refused in one line")
    (tmp / "inorder.json").write_text(json.dumps(dict(report, executor="in-order")))
    bad = run("graph_breakdown.py", str(tmp / "inorder.json"), str(tmp / "g.csv"), "--out", str(tmp / "x.csv"))
    check(bad.returncode != 0 and "graph-executor" in bad.stderr, "an in-order report refused")

print(f"{len(FAILURES)} failures")
sys.exit(1 if FAILURES else 0)

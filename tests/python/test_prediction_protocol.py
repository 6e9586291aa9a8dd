"""The held-out protocol's scripts (experiments/heldout.py, experiments/prediction_summary.py) on
constructed inputs: the summary of a hand-made held-out CSV against counts worked out by hand
(failed runs are misses), the cross-device rescaling of a profile, and the draw (the same seed
gives the same points; every point within its ranges; the rival the one with the fewest steps) and
the resumption of a cut draw on a stand-in mmvram (finished pairs kept, only the rest run
again, a changed model refused), and the class ablation's profile stripping.
With the mmvram binary as argument, the draw also runs on the registry and closed forms it prints.
usage: python3 tests/python/test_prediction_protocol.py [MMVRAM]"""
import csv
import json
import math
import os
import pathlib
import subprocess
import sys
import tempfile

from checks import FAILURES, check

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "experiments"))
import class_ablation  # noqa: E402
import heldout  # noqa: E402
import prediction_summary  # noqa: E402

COLUMNS = heldout.PREFIX + ["algorithm", "n", "s", "density", "mode", "seed", "verified", "error", "steps",
                            "depth_steps", "work_total_ops", "words_read", "words_written", "measured_span_ns", "predicted_serial_ns", "predicted_dag_ns", "predicted_queued_ns"]
# (executor, draw, role) -> (predicted, measured) in ns, or None for a failed run. Draw 0 has
# n = 2^21 (target ±15%), draw 1 n = 2^12 (target ±25%).
RUNS = {("in-order", 0, "mmu"): (110, 100), ("in-order", 0, "rival"): (130, 100),
        ("in-order", 1, "mmu"): (80, 100), ("in-order", 1, "rival"): None,
        ("graph", 0, "mmu"): (100, 100), ("graph", 0, "rival"): (50, 50),
        ("graph", 1, "mmu"): (7, 7), ("graph", 1, "rival"): (9, 9),
        ("dag", 0, "mmu"): (114, 100), ("dag", 0, "rival"): (100, 100),
        ("dag", 1, "mmu"): (126, 100), ("dag", 1, "rival"): (75, 100)}


def constructed_rows():
    rows = []
    for (executor, draw, role), times in RUNS.items():
        column = prediction_summary.mmvram_data.EXECUTORS[executor]["predicted"]
        r = dict.fromkeys(COLUMNS, "")
        r.update(heldout_seed="5", draw=str(draw), pair="sscr/schwartz-segmented-scan", role=role,
                 heldout_executor=executor, commit="abc1234def", algorithm="sscr" if role == "mmu" else "schwartz",
                 n=str(2 ** 21 if draw == 0 else 2 ** 12), s="12", mode="integer", seed="3")
        # ledger: the MMU run 30 steps, depth 10, work 400, 70 + 30 words; the rival 60, 40, 100, 150 + 50
        r.update(zip(("steps", "depth_steps", "work_total_ops", "words_read", "words_written"),
                     ("30", "10", "400", "70", "30") if role == "mmu" else ("60", "40", "100", "150", "50")))
        if times is None:
            r["error"] = "out of memory"
        else:
            r.update(verified="true", measured_span_ns=str(times[1]), **{column: str(times[0])})
        rows.append(r)
    return rows


def test_summary():
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "heldout_T.csv"
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
            w.writeheader()
            w.writerows(constructed_rows())
        rows = list(csv.DictReader(open(path)))
    s = prediction_summary.summarize(rows, "T")["executors"]
    io, gr, dag = s["in-order"], s["graph"], s["dag"]
    check((io["big"]["within"], io["big"]["points"]) == (1, 2), "in-order: 1 of 2 big points within ±15% (+10%, +30%)")
    check((io["small"]["within"], io["small"]["points"], io["small"]["failed"]) == (1, 2, 1),
          "in-order: the failed small run counts as a miss (1 of 2)")
    check(not io["big"]["met"] and not io["small"]["met"], "in-order: both targets missed")
    check(math.isclose(io["median_abs_error"], 0.2), "in-order: median |error| of 10%, 30%, 20% is 20%")
    check(io["worst"]["point"].startswith("schwartz n=2097152") and math.isclose(io["worst"]["error"], 0.3),
          "in-order: worst point the rival at 2^21, +30%")
    check((io["ratios"]["within"], io["ratios"]["points"]) == (0, 1),
          "in-order: ratio 110/130 against 100/100 is -15.4%, outside ±15%")
    check(gr["big"]["met"] and gr["small"]["met"] and gr["ratios"]["met"] and gr["median_abs_error"] == 0,
          "graph: exact predictions meet every target")
    check((dag["big"]["within"], dag["small"]["within"]) == (2, 1), "dag: +14% and 0% within ±15%, -25% in and +26% out")
    check(math.isclose(dag["median_abs_error"], 0.195), "dag: median |error| of 14%, 0%, 26%, 25% is 19.5%")
    check(dag["ratios"]["within"] == 1 and math.isclose(dag["ratios"]["all"][0]["error"], 0.14),
          "dag: ratio 114/100 against 100/100 is +14%, within")
    check(len(dag["ratios"]["all"]) == 2, "dag: both draws have a ratio entry, the small one outside the target")
    table = prediction_summary.markdown(prediction_summary.summarize(rows, "T"))
    check("| in-order | 1 / 2 (50.0%), missed | 1 / 2 (50.0%), missed | 20.0% |" in table, "the table's in-order row")


def test_ratios():
    try:
        import plot_ratios
    except ImportError:
        print("no matplotlib: plot_ratios.py not checked")
        return
    points = {(p["executor"], p["n_items"]): p for p in plot_ratios.heldout_points("T", constructed_rows())}
    big = points[("in-order", 2 ** 21)]
    check((big["steps_ratio"], big["depth_ratio"], big["work_ratio"], big["words_moved_ratio"]) == (0.5, 0.25, 4.0, 0.5),
          "ratios: the ledger's steps, depth, work and words moved, MMU over rival")
    check(math.isclose(big["predicted_time_ratio"], 110 / 130) and big["measured_time_ratio"] == 1.0,
          "ratios: predicted 110/130, measured 100/100")
    check(points[("in-order", 2 ** 12)]["measured_time_ratio"] is None, "ratios: a failed rival leaves no measured ratio")
    check(points[("dag", 2 ** 12)]["measured_time_ratio"] == 1.0, "ratios: the dag pair at 2^12, 100/100")
    with tempfile.TemporaryDirectory() as tmp:
        results, out = pathlib.Path(tmp) / "results", pathlib.Path(tmp) / "out"
        results.mkdir()
        with open(results / "heldout_T.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
            w.writeheader()
            w.writerows(constructed_rows())
        done = subprocess.run([sys.executable, str(ROOT / "experiments/plot_ratios.py"), "--out", str(out), "--results",
                               str(results), "--heldout", str(results), "--mmvram", "/nonexistent"],
                              capture_output=True, text=True)
        check(done.returncode == 0 and (out / "ratios_vs_n.png").stat().st_size > 1000, "plot_ratios.py draws the figure")
        rows = list(csv.DictReader(open(out / "ratios_vs_n.csv")))
        check(len(rows) == 6 and {r["gpu"] for r in rows} == {"T"}, "plot_ratios.py: 6 ratios (2 draws x 3 executors)")


def test_rescaled_profile():
    a = {"device": "A", "classes": {"stream": {"latency_ns": 10, "ns_per_byte": 1, "ns_per_op": 0, "host_ns": 100},
                                    "mmu": {"latency_ns": 4, "ns_per_byte": 2, "ns_per_op": 3, "host_ns": 8}}}
    b = {"device": "B", "classes": {"stream": {"latency_ns": 20, "ns_per_byte": 0.5, "ns_per_op": 0, "host_ns": 50}}}
    got = prediction_summary.rescaled_profile(a, b)["classes"]
    check(got["mmu"] == {"latency_ns": 8, "ns_per_byte": 1, "ns_per_op": 1.5, "host_ns": 4},
          "rescaled: latency × 2, ns per byte and per op × 0.5, host time × 0.5")
    check(got["stream"] == b["classes"]["stream"], "rescaled: the stream class becomes the target's")
    check(a["classes"]["mmu"]["latency_ns"] == 4, "rescaled: the source profile is left as it was")
    # A concurrent class scales by the concurrent stream class where both profiles have one.
    a["classes"]["concurrent:stream"] = {"latency_ns": 5, "ns_per_byte": 1, "ns_per_op": 0, "host_ns": 100}
    a["classes"]["concurrent:mmu"] = {"latency_ns": 4, "ns_per_byte": 2, "ns_per_op": 3, "host_ns": 8}
    b["classes"]["concurrent:stream"] = {"latency_ns": 20, "ns_per_byte": 0.25, "ns_per_op": 0, "host_ns": 50}
    got = prediction_summary.rescaled_profile(a, b)["classes"]
    check(got["concurrent:mmu"] == {"latency_ns": 16, "ns_per_byte": 0.5, "ns_per_op": 0.75, "host_ns": 4},
          "rescaled: a concurrent class by the concurrent stream class (latency × 4, per byte × 0.25)")
    check(got["mmu"]["latency_ns"] == 8, "rescaled: the other classes still by the stream class")
    del b["classes"]["concurrent:stream"]
    got = prediction_summary.rescaled_profile(a, b)["classes"]
    check(got["concurrent:mmu"]["latency_ns"] == 8, "rescaled: without a target concurrent stream class, by the stream class")


REGISTRY = [{"name": "v1", "units": "VCU only", "input": "x", "modes": "integer, float"},
            {"name": "v2", "units": "VCU+iadd", "input": "x", "modes": "integer, float"},
            {"name": "m1", "units": "MMU+VCU", "input": "x", "modes": "integer, float"},
            {"name": "m2", "units": "MMU+VCU", "input": "x, flags", "modes": "integer, float"},
            {"name": "v3", "units": "VCU only", "input": "x, flags", "modes": "integer, float"},
            {"name": "m3", "units": "MMU+VCU", "input": "a, b, flags", "modes": "float"}]


def fake_steps(names, n):
    """v2 beats v1 from n = 2^16 on."""
    return {"v1": 20, "v2": 30 if n < 2 ** 16 else 10, "v3": 5}


def check_draw(points, registry, steps, label):
    entries = {e["name"]: e for e in registry}
    ok = True
    for p in points:
        cands = prediction_summary.mmvram_data.rival_candidates(registry)[p["mmu"]]
        segmented = "flags" in entries[p["mmu"]]["input"]
        ok &= 2 ** 10 <= p["n"] <= 2 ** 27 and 2 <= p["s"] <= 128 and p["mode"] in ("integer", "float64")
        ok &= p["rival"] == min(cands, key=lambda a: steps(cands, p["n"])[a])
        ok &= (p["density"] is None) if not segmented else (p["density"] == 0 or 2 ** -12 <= p["density"] <= 0.5)
    check(ok, f"{label}: every point within its ranges, the rival the fewest-step candidate")
    return ok


def test_draw():
    a = heldout.draw(11, 400, REGISTRY, fake_steps)
    check(a == heldout.draw(11, 400, REGISTRY, fake_steps), "draw: the same seed gives the same points")
    check(a != heldout.draw(12, 400, REGISTRY, fake_steps), "draw: another seed gives other points")
    check(heldout.draw(11, 10, REGISTRY, fake_steps) == a[:10], "draw: fewer pairs are a prefix of more")
    check_draw(a, REGISTRY, fake_steps, "draw")
    check({p["mmu"] for p in a} == {"m1", "m2"}, "draw: m3 (no VCU-only rival of its input) is never drawn")
    check({p["rival"] for p in a if p["mmu"] == "m1"} == {"v1", "v2"}, "draw: m1's rival depends on n")
    check(any(p["n"] & (p["n"] - 1) for p in a) and any(p["s"] & (p["s"] - 1) for p in a),
          "draw: n and s off the powers of 2 appear")
    check(min(p["n"] for p in a) < 2 ** 12 and max(p["n"] for p in a) > 2 ** 25, "draw: n spans the range")
    dens = [p["density"] for p in a if p["density"] is not None]
    check(0 < dens.count(0) < len(dens) and min(d for d in dens if d) < 2 ** -10, "draw: densities 0 and 1/k both appear")


STUB = """#!/usr/bin/env python3
# A stand-in mmvram for heldout.py: the registry, closed forms, help and one CSV row per run,
# each run logged (algorithm n work-limit) to $STUB_LOG.
import json, os, sys
args = sys.argv[1:]
if args[0] == "list":
    print(json.dumps(REGISTRY))
elif args[0] == "closed-forms":
    names, n = args[1:args.index("--n")], int(args[args.index("--n") + 1])
    print("algorithm,steps")
    for name in names:
        print(f"{name},{ {'v1': 20, 'v2': 30 if n < 2 ** 16 else 10, 'v3': 5}.get(name, 40) }")
elif args[0] == "help":
    print("usage: mmvram run ALGO [--executor in-order|graph|dag]")
elif args[0] == "run":
    n = args[args.index("--n") + 1]
    if args[1] != "hillis-steele-scan":
        with open(os.environ["STUB_LOG"], "a") as f:
            f.write(f"{args[1]} {n} {os.environ.get('MMVRAM_WORK_LIMIT')}\\n")
    value = lambda flag: args[args.index(flag) + 1] if flag in args else ""
    print("algorithm,n,s,density,mode,seed,backend,error,measured_span_ns,predicted_serial_ns,"
          "predicted_dag_ns,predicted_queued_ns")
    print(f"{args[1]},{n},{value('--s')},{value('--density')},{value('--mode')},{value('--seed')},"
          f"{value('--backend')},,100,100,100,100")
"""


def test_resume():
    with tempfile.TemporaryDirectory() as d:
        d = pathlib.Path(d)
        tool = d / "mmvram"
        tool.write_text(STUB.replace("REGISTRY)", json.dumps(REGISTRY) + ")"))
        tool.chmod(0o755)
        (d / "build_info.json").write_text(json.dumps({"commit": "c0ffee", "dirty": False}))
        res = d / "res"
        res.mkdir()
        for name in ("profile_X.json", "profile_X_graph.json"):
            (res / name).write_text("{}")
        log = d / "runs.log"
        man, table = res / "heldout_X.json", res / "heldout_X.csv"
        base = [sys.executable, str(ROOT / "experiments" / "heldout.py"), "run", "--gpu", "X", "--results", str(res),
                "--pairs", "3", "--mmvram", str(tool)]
        run = lambda *extra: subprocess.run(base + list(extra), capture_output=True, text=True,  # noqa: E731
                                            env=dict(os.environ, STUB_LOG=str(log)))
        refused = run("--resume")
        check(refused.returncode != 0 and "--resume needs" in refused.stderr, "resume: refused without a cut draw")
        check(run("--seed", "7").returncode == 0, "resume: a whole draw of 3 pairs runs on the stand-in")
        runs = 2 * len(heldout.mmvram_data.EXECUTORS)
        full = list(csv.DictReader(open(table)))
        check(len(full) == 3 * runs and log.read_text().count("\n") == 3 * runs, "resume: every run of the draw")
        check(all(line.endswith(" 2^39") for line in log.read_text().splitlines()),
              "draw: every run with the work limit raised to the held-out range's")
        finished = json.loads(man.read_text())
        check(run("--resume").returncode != 0, "resume: refused for a draw that finished")
        # Cut it: the first pair whole, two runs of the second, the manifest without its end.
        cut = dict(finished)
        del cut["wall_time_s"], cut["failed_runs"]
        man.write_text(json.dumps(cut))
        with open(table, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(full[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(full[:runs + 2])
        log.write_text("")
        done = run("--resume")
        again = list(csv.DictReader(open(table)))
        resumed = json.loads(man.read_text())
        check(done.returncode == 0 and again[:runs] == full[:runs] and len(again) == 3 * runs,
              "resume: the finished pair's runs kept as they were, the draw complete")
        check(log.read_text().count("\n") == 2 * runs, "resume: only the cut pair and the one after it run again")
        check([r["draw"] for r in again] == [r["draw"] for r in full] and resumed["seed"] == 7
              and len(resumed.get("resumed_utc", [])) == 1 and resumed["draws"] == finished["draws"],
              "resume: same seed and points, the resumption recorded")
        # A changed profile or a run of another seed in the table is refused, the manifest untouched.
        man.write_text(json.dumps(cut))
        (res / "profile_X.json").write_text('{"changed": 1}')
        check(run("--resume").returncode != 0 and json.loads(man.read_text()) == cut,
              "resume: refused when a profile changed, the manifest left as it was")
        (res / "profile_X.json").write_text("{}")
        with open(table, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(full[0]), lineterminator="\n")
            w.writeheader()
            w.writerows([dict(full[0], heldout_seed="8")] + full[1:runs])
        check(run("--resume").returncode != 0, "resume: refused when the table holds a run of another seed")


def test_class_ablation():
    p = {"device": "X", "classes": {"stream": {"latency_ns": 1}, "mmu-word/s4": {"latency_ns": 2},
                                    "mmu-word/s4/row": {"latency_ns": 3}, "concurrent:mmu-word/s4/row": {"latency_ns": 4}}}
    got = class_ablation.without_classes(p, "/row")
    check(sorted(got["classes"]) == ["mmu-word/s4", "stream"] and got["device"] == "X" and len(p["classes"]) == 4,
          "class ablation: the classes ending in the suffix removed (concurrent ones too), the rest and the input kept")
    check(len(class_ablation.without_classes(p, "")["classes"]) == 4, "class ablation: an empty suffix removes nothing")
    p["mmu_shapes"] = [{"format": "mmu-word", "s": 3, "m": 999, "measured_ns": 5000.5}]
    check(class_ablation.with_shapes(p, "keep")["mmu_shapes"] == p["mmu_shapes"], "shape ablation: keep leaves the shapes")
    check(class_ablation.with_shapes(p, "strip")["mmu_shapes"] == [] and len(p["mmu_shapes"]) == 1,
          "shape ablation: strip removes the shapes, the input kept")
    plain = class_ablation.with_shapes(p, "plain")["mmu_shapes"][0]
    check(plain == {"format": "mmu-word", "s": 3, "m": 999 * 10 ** 6, "measured_ns": 5000.5 * 10 ** 6}
          and p["mmu_shapes"][0]["m"] == 999, "shape ablation: plain scales each point's words and time by 10^6")


def test_draw_with_tool(tool):
    registry = json.loads(subprocess.run([tool, "list", "--format", "json"], check=True, capture_output=True,
                                         text=True).stdout)
    steps = heldout.closed_form_steps(tool)
    a = heldout.draw(3, 12, registry, steps)
    check(a == heldout.draw(3, 12, registry, steps), "draw on the registry: the same seed gives the same points")
    check_draw(a, registry, steps, "draw on the registry")
    check({p["mmu"] for p in a} <= {"matmul-scan", "scd", "sscr", "block-sscr"},
          "draw on the registry: only MMU algorithms with a VCU-only rival")


def main():
    test_summary()
    test_ratios()
    test_rescaled_profile()
    test_draw()
    test_resume()
    test_class_ablation()
    if len(sys.argv) > 1:
        test_draw_with_tool(sys.argv[1])
    print(f"{len(FAILURES)} failed" if FAILURES else "all passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())

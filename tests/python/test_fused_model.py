"""experiments/fused_model.py: the byte derivation from a ledger DAG (a hand-written DAG, then the
real DAGs of MatMulScan, SSCR and SCD from `mmvram run --dag` at random sizes and densities)
against the bytes a fused kernel's arrays hold, counted independently from its arguments; the
bandwidth split and the time model on synthetic bench rows; bad DAGs rejected; and the script end
to end on copies of the stored results (the committed JSON regenerated, missing files skipped).
usage: python3 tests/python/test_fused_model.py MMVRAM_BINARY"""
import json
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "experiments"))
import fused_model as fm  # noqa: E402
from checks import FAILURES, check  # noqa: E402

# The fused kernels' arguments (gpu/kernels/include/mmvram/gpu/api.hpp), bytes per element and
# what each is sized by: the reference the derivation must reproduce.
ARGUMENTS = {"matmul-scan": [("in", 4, "n"), ("out", 4, "n")],
             "sscr": [("in", 4, "n"), ("in", 1, "n"), ("out", 4, "n")],
             "scd": [("in", 4, "n"), ("in", 1, "n"), ("out", 4, "segments"), ("out", 8, "segments")]}


def reference_bytes(algorithm, n, segments):
    size = {"n": n, "segments": segments}
    read = sum(b * size[by] for d, b, by in ARGUMENTS[algorithm] if d == "in")
    return read, sum(b * size[by] for d, b, by in ARGUMENTS[algorithm] if d == "out")


def expect_exit(fn, what):
    try:
        fn()
    except SystemExit as e:
        check("fused_model.py:" in str(e), f"{what} is rejected ({e})")
        return
    check(False, f"{what} is rejected")


# A hand-written DAG: loads x and f and a constant, two intermediates, one sink of length 8.
DOT = '''digraph mmvram {
    n0 [label="f\\nscalar m=8", shape=note];
    n1 [label="x\\nscalar m=8", shape=note];
    n2 [label="const:one\\nscalar m=1", shape=note];
    n3 [label="select\\nVCU m=8", shape=ellipse];
    n4 [label="mmu\\nMMU m=8", shape=box];
    n5 [label="sub\\nVCU m=8", shape=ellipse];
  n0 -> n3;
  n2 -> n3;
  n1 -> n4;
  n3 -> n5;
  n4 -> n5;
}'''
inputs, outputs, inner = fm.classify(*fm.parse_dot(DOT))
check(inputs == {"f": 8, "x": 8}, f"hand DAG: inputs x and f, the constant left out ({inputs})")
check(outputs == [8], f"hand DAG: one output, the sink ({outputs})")
check(inner == 2, f"hand DAG: two records kept on chip ({inner})")
check(fm.fused_bytes(inputs, outputs, 8, 3, "f32") == (5, 4, 0), "hand DAG: 5 bytes read, 4 written per item")
expect_exit(lambda: fm.fused_bytes(inputs, [5], 8, 3, "f32"), "an output neither per item nor per segment")
expect_exit(lambda: fm.fused_bytes({"x": 7}, [8], 8, 3, "f32"), "an input shorter than n")
expect_exit(lambda: fm.fused_bytes({"y": 8}, [8], 8, 3, "f32"), "an input of unknown type")
expect_exit(lambda: fm.parse_dot("digraph mmvram {}"), "a DAG with no records")

# Bandwidths: read-only 4n bytes in 1 ms, copy 8n bytes in 3 ms: reads at 4n/1ms, writes at 4n/2ms.
n = 1 << 20
rows = [{"kernel": "read_only_reduce", "dtype": dt, "n": n, "kernel_bytes_per_item": 4, "time_ms": 1.0} for dt in ("f32", "i32")]
rows += [{"kernel": "copy", "dtype": dt, "n": n, "kernel_bytes_per_item": 8, "time_ms": 3.0} for dt in ("f32", "i32")]
bw = fm.bandwidths({"rows": rows})
check(abs(bw["f32"]["read_gb_per_s"] - 4 * n / 1e6) < 1e-9 and abs(bw["f32"]["write_gb_per_s"] - 4 * n / 2e6) < 1e-9,
      f"bandwidth split: read 4n per ms, write 4n per 2 ms ({bw['f32']})")

mmvram = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None
if mmvram is None or not mmvram.is_file():
    print("no mmvram binary given: the DAG derivation is not checked")
    sys.exit(1 if FAILURES else 77)

rng = random.Random(23)
for algorithm in ARGUMENTS:
    for _ in range(3):
        n, s = rng.randint(300, 6000), rng.choice([2, 4, 16, 32])
        density = rng.choice([1 / 32, 0.1, 0.3]) if algorithm != "matmul-scan" else None
        d = fm.derive(mmvram, algorithm, n=n, s=s, density=density)
        segs = d["segments"]
        for dtype in ("f32", "i32"):
            got = d[dtype]
            want_read, want_written = reference_bytes(algorithm, n, segs)
            written = got["written_bytes_per_item"] * n + got["written_bytes_per_segment"] * segs
            check(got["read_bytes_per_item"] * n == want_read and written == want_written,
                  f"{algorithm} n={n} s={s} density={density} ({segs} segments) {dtype}: "
                  f"read {got['read_bytes_per_item'] * n} / {want_read}, written {written} / {want_written}")
        check(d["records_kept_on_chip"] > 0 and d["ledger_words_moved_per_item"] > 2,
              f"{algorithm}: the ledger moves {d['ledger_words_moved_per_item']:.1f} words per item through "
              f"{d['records_kept_on_chip']} intermediate records")

# The time model on synthetic rows: launch + the larger of bytes and chain, each of them binding.
derived = {"segmented_sum": fm.derive(mmvram, "scd")}
m = 1 << 20
row = {"kernel": "k", "operation": "segmented_sum", "variant": "v0_cuda_cores", "dtype": "f32", "distribution": "d",
       "n": m, "num_segments": 1000, "kernel_bytes_per_item": 5, "kernel_bytes_per_segment": 12, "time_ms": 1.0}
bytes_ms = (5 * m / bw["f32"]["read_gb_per_s"] + 12 * 1000 / bw["f32"]["write_gb_per_s"]) * 1e-6
for hop_us in (2.0, 0.01):
    lat = {"launch_us": 5.0, "hop_us": {"segmented_sum": hop_us}}
    p = fm.predict(row, derived, bw, lat, {"segmented_sum": 1024}, 32)
    chain_ms = (m // 1024 // 32) * hop_us * 1e-3
    check(abs(p["predicted_ms"] - (5e-3 + max(bytes_ms, chain_ms))) < 1e-12 and p["tiles"] == m // 1024
          and abs(p["chain_serial_ms"] - m // 1024 * hop_us * 1e-3) < 1e-12,
          f"time, hop {hop_us} us: {p['predicted_ms']:.6f} ms = launch + max({bytes_ms:.6f}, {chain_ms:.6f})")
expect_exit(lambda: fm.predict({**row, "kernel_bytes_per_segment": 8}, derived, bw, lat, {"segmented_sum": 1024}, 32),
            "a bench row whose byte floor differs from the derivation")

# End to end on copies of the stored results: the committed fused_prediction_H100.json is what the
# script gives; a GPU with a bench run but no latency runs takes another GPU's and says so; with no
# bench run, or no latency runs of any GPU, it writes nothing and succeeds (run_all.sh relies on it).
try:
    import matplotlib  # noqa: F401
except ImportError:
    print("no matplotlib: the end-to-end runs are not checked")
    sys.exit(1 if FAILURES else 0)
stored = fm.ROOT / "experiments" / "results"
scratch = []


def run_script(files):
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="fused_model_test_"))
    scratch.append(tmp)
    (tmp / "results").mkdir()
    for src, dst in files.items():
        shutil.copy(stored / src, tmp / "results" / dst)
    r = subprocess.run([sys.executable, str(fm.ROOT / "experiments" / "fused_model.py"), "--mmvram", str(mmvram),
                        "--results", str(tmp / "results"), "--out", str(tmp / "out")], capture_output=True, text=True)
    return r, tmp


inputs_h100 = ["gpu_bench_H100.json", "gpu_bench_ablation_H100.json", "gpu_bench_scd_H100.json",
               "gpu_latency_v3_n14_H100.json", "gpu_latency_v3_n16_H100.json"]
r, tmp = run_script({f: f for f in inputs_h100})
got = json.loads((tmp / "results" / "fused_prediction_H100.json").read_text()) if r.returncode == 0 else None
check(got == json.loads((stored / "fused_prediction_H100.json").read_text()),
      f"the stored H100 inputs give the committed fused_prediction_H100.json ({r.stderr.strip()})")
check((tmp / "out" / "fused_prediction_H100.png").is_file(), "the H100 figure is drawn")
r, tmp = run_script({"gpu_bench_H100.json": "gpu_bench_X1.json", "gpu_latency_v3_n14_H100.json": "gpu_latency_v3_n14_H100.json",
                     "gpu_latency_v3_n16_H100.json": "gpu_latency_v3_n16_H100.json"})
got = json.loads((tmp / "results" / "fused_prediction_X1.json").read_text()) if r.returncode == 0 else {}
check(got.get("model", {}).get("latency_gpu") == "H100" and got["summary"]["points"] == 172,
      "a GPU without latency runs takes another GPU's and names it")
r, tmp = run_script({"gpu_bench_H100.json": "gpu_bench_X1.json"})
check(r.returncode == 0 and not list((tmp / "results").glob("fused_prediction_*")) and "skipped" in r.stderr,
      f"no latency runs of any GPU: nothing written, exit 0 ({r.stderr.strip()})")
r, tmp = run_script({})
check(r.returncode == 0 and "nothing to model" in r.stdout, f"no bench run: exit 0 ({r.stdout.strip()})")
for tmp in scratch:
    shutil.rmtree(tmp)

print(f"{len(FAILURES)} failures" if FAILURES else "all checks passed")
sys.exit(1 if FAILURES else 0)

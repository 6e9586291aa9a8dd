#!/usr/bin/env python3
"""Writes gpu_suite.sh's record (schema mmvram-gpu-suite/1) from its logs, or checks records.

usage: gpu_suite_record.py LOGS BUILD_INFO GPU DRIVER STRESS_SECONDS [OUT]
       gpu_suite_record.py --verify RECORD.json...
LOGS holds summary (one "name exit_code seconds" line per suite) and each suite's log;
OUT defaults to experiments/results/gpu_suite_<GPU>.json (GPU: H100, H200, ... from the name).
--verify: each record's schema, that its commit is a commit of this repository (when run in a
git checkout with its whole history), and that all_pass follows from its suites and dirty flag;
exit 1 on a bad one.
"""
import datetime
import json
import pathlib
import re
import subprocess
import sys

CORE_SUITES = {"gpu_baselines", "gpu_kernels", "gpu_state_passing", "gpu_backends", "gpu_stress",
               "python_state_passing", "check_quick", "stress"}


def gpu_token(name):
    """'NVIDIA H100 80GB HBM3' -> 'H100'; else the name with non-alphanumerics removed."""
    m = re.search(r"\b([A-Z]{1,2}\d{2,4}[A-Z]?)\b", name)
    return m.group(1) if m else re.sub(r"[^A-Za-z0-9]+", "", name)


def catch2_counts(text):
    """Test cases and assertions from Catch2's closing lines (v2 and v3)."""
    m = re.search(r"All tests passed \((\d+) assertions? in (\d+) test cases?\)", text)
    if m:
        return {"test_cases": int(m.group(2)), "test_cases_failed": 0, "assertions": int(m.group(1)),
                "assertions_failed": 0}
    counts = {}
    for key in ("test cases", "assertions"):
        m = re.search(key + r":\s*(\d+)\s*\|\s*(\d+) passed(?:\s*\|\s*(\d+) failed)?", text)
        if m:
            k = key.replace(" ", "_")
            counts[k] = int(m.group(1))
            counts[k + "_failed"] = int(m.group(3) or 0)
    return counts


def suite_counts(name, logs):
    text = (logs / f"{name}.log").read_text(errors="replace")
    if name == "check_quick" and (logs / "check.json").exists():
        return json.loads((logs / "check.json").read_text())["summary"]
    if name == "stress" and (logs / "stress.json").exists():
        s = json.loads((logs / "stress.json").read_text())
        return {"cases": s["cases"], "failures": s["failures"], "seconds": s["seconds"],
                "by_kernel": s["by_kernel"], "first_failures": s["first_failures"][:5]}
    if name == "spmv_quick" and (logs / "spmv.json").exists():  # `mmvram kernels spmv --quick`
        rows = [r for m in json.loads((logs / "spmv.json").read_text())["matrices"] for r in m["results"]]
        return {"results": len(rows), "check_failures": sum(not r.get("check", {}).get("pass", False) for r in rows)}
    if name == "check_algorithms":  # `mmvram kernels check ALGO`: one line per dtype and path
        return {"paths_pass": len(re.findall(r"\sPASS$", text, re.M)),
                "paths_fail": len(re.findall(r"\sFAIL\b(?! \(documented)", text)),
                "paths_error": len(re.findall(r"\sERROR\b", text)),
                "documented_inaccuracy": len(re.findall(r"documented inaccuracy, not counted", text))}
    if name == "python_state_passing":
        m = re.search(r"(\d+) failures", text)
        return {"failures": int(m.group(1))} if m else {}
    return catch2_counts(text)


def full_history():
    """Whether this is a git checkout with its whole history (a shallow clone may lack the commit)."""
    try:
        r = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], capture_output=True, text=True)
    except OSError:
        return False
    return r.returncode == 0 and r.stdout.strip() == "false"


def record_problems(path):
    """What is wrong with one record ([] when nothing)."""
    try:
        r = json.loads(pathlib.Path(path).read_text())
    except (OSError, ValueError) as e:
        return [f"unreadable: {e}"]
    problems = []
    if r.get("schema") != "mmvram-gpu-suite/1":
        problems.append(f"schema {r.get('schema')!r}")
    commit = str(r.get("commit", ""))
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        problems.append(f"commit {commit!r} is not a full hash")
    elif full_history() and subprocess.run(["git", "cat-file", "-e", commit + "^{commit}"],
                                           capture_output=True).returncode != 0:
        problems.append(f"commit {commit[:12]} is not in this repository")
    suites = r.get("suites", [])
    missing = CORE_SUITES - {s.get("suite") for s in suites}
    if missing:
        problems.append(f"suites missing: {sorted(missing)}")
    expected = bool(suites) and all(s.get("exit_code") == 0 for s in suites) and r.get("dirty") is False
    if r.get("all_pass") is not expected:
        problems.append(f"all_pass {r.get('all_pass')!r} does not follow from its suites (expected {expected})")
    return problems


def verify(paths):
    bad = 0
    for p in paths:
        problems = record_problems(p)
        print(f"{p}: {'ok' if not problems else '; '.join(problems)}")
        bad += bool(problems)
    return 1 if bad or not paths else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "--verify":
        return verify(argv[2:])
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    logs, build_info, gpu, driver, stress_seconds = pathlib.Path(argv[1]), argv[2], argv[3], argv[4], argv[5]
    info = json.loads(pathlib.Path(build_info).read_text())
    suites = []
    for line in (logs / "summary").read_text().splitlines():
        name, rc, seconds = line.split()
        rc = int(rc)
        suites.append({"suite": name, "exit_code": rc, "pass": rc == 0, "skipped": rc == 77,
                       "seconds": int(seconds), "counts": suite_counts(name, logs)})
    record = {"schema": "mmvram-gpu-suite/1", "commit": info["commit"], "dirty": info["dirty"],
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "gpu": gpu, "driver": driver, "stress_seconds": int(stress_seconds),
              "all_pass": all(s["pass"] for s in suites) and not info["dirty"], "suites": suites}
    out = pathlib.Path(argv[6] if len(argv) == 7 and argv[6] else
                       f"experiments/results/gpu_suite_{gpu_token(gpu)}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    for s in suites:
        print(f"{s['suite']:22s} {'PASS' if s['pass'] else 'SKIPPED' if s['skipped'] else 'FAIL'} "
              f"({s['seconds']} s) {json.dumps(s['counts'])[:160]}")
    print(f"gpu_suite: {'PASS' if record['all_pass'] else 'FAIL'} on {gpu} at {info['commit'][:12]}"
          f"{' (dirty tree)' if info['dirty'] else ''} -> {out}")
    return 0 if record["all_pass"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""The held-out draw and its runs (docs/prediction.md, "The held-out protocol").

Each draw is a pair: an MMU algorithm and its best VCU-only rival (mmvram_data.rival_candidates
on `mmvram list --format json`; the rival with the fewest closed-form steps at the drawn n), n
log-uniform in [2^10, 2^27], s uniform in 2..128, a segment density (segmented algorithms: 0 with
probability 1/4, else 1/k with k log-uniform in [2, 2^12]), a mode among the algorithm's modes
(integer, float64) and an input seed. `run` freezes the binary's commit and the profiles' hashes
in heldout_<GPU>.json before it draws, then runs both algorithms of every pair on every executor
of mmvram_data.EXECUTORS with its profile and writes every run to heldout_<GPU>.csv, a failed one
as a row with its error. `run --resume` goes on with a draw that a time limit cut: same seed,
binary and profiles (refused otherwise), the finished pairs' rows kept, the rest run.
usage: experiments/heldout.py draw --seed K [--pairs P] [--mmvram TOOL]
       experiments/heldout.py run --gpu H100 --device NAME --results DIR [--seed K] [--pairs P]
                                  [--repeat R] [--backend cuda] [--mmvram TOOL] [--resume]
"""
import argparse
import csv
import datetime
import hashlib
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import time

import mmvram_data

HERE = pathlib.Path(__file__).resolve().parent
N_LOG2 = (10, 27)
S_RANGE = (2, 128)
K_LOG2 = (1, 12)      # density 1/k, k log-uniform in [2, 2^12]
P_ONE_SEGMENT = 0.25  # probability of density 0 for a segmented algorithm
MODES = {"integer": ["integer"], "float": ["float64"]}  # the registry's modes -> --mode values
RUN_TIMEOUT_S = 120  # one run at n = 2^27 takes seconds; past this it counts as failed
PREFIX = ["heldout_seed", "draw", "pair", "role", "heldout_executor", "profile", "profile_sha256",
          "commit", "commit_dirty"]


def tool_json(tool, *args):
    """The JSON that `mmvram ARGS` prints; raises CalledProcessError when it fails."""
    return json.loads(subprocess.run([tool, *args], check=True, capture_output=True, text=True).stdout)


def closed_form_steps(tool):
    """steps(names, n) -> {name: steps} from `mmvram closed-forms` (at s = 16: the rivals ignore s)."""
    def steps(names, n):
        out = subprocess.run([tool, "closed-forms", *names, "--n", str(n)], check=True, capture_output=True,
                             text=True).stdout
        return {r["algorithm"]: int(r["steps"]) for r in csv.DictReader(out.splitlines())}
    return steps


def draw(seed, pairs, registry, steps):
    """The held-out points of one seed: `pairs` dicts (mmu, rival, n, s, density, mode, seed).
    registry: `mmvram list --format json`; steps: as closed_form_steps returns. Every draw takes
    the same number of values from one random.Random(seed), so a seed always gives the same points."""
    rng = random.Random(seed)
    entries = {e["name"]: e for e in registry}
    candidates = mmvram_data.rival_candidates(registry)
    mmus = [e["name"] for e in registry if e["name"] in candidates]
    if not mmus:
        raise SystemExit("heldout.py: the registry has no MMU algorithm with a VCU-only rival")
    out = []
    for i in range(pairs):
        u_algo, u_n, u_s, u_zero, u_k, u_mode, u_seed = (rng.random() for _ in range(7))
        mmu = mmus[int(u_algo * len(mmus))]
        n = min(max(round(2 ** (N_LOG2[0] + (N_LOG2[1] - N_LOG2[0]) * u_n)), 2 ** N_LOG2[0]), 2 ** N_LOG2[1])
        s = S_RANGE[0] + int(u_s * (S_RANGE[1] - S_RANGE[0] + 1))
        segmented = "flags" in entries[mmu]["input"]
        k = 2 ** (K_LOG2[0] + (K_LOG2[1] - K_LOG2[0]) * u_k)
        density = None if not segmented else 0.0 if u_zero < P_ONE_SEGMENT else float(f"{1 / k:.6g}")
        modes = [m for family in entries[mmu]["modes"].split(", ") for m in MODES[family]]
        rival = mmvram_data.best_rival(candidates[mmu], steps(candidates[mmu], n))
        out.append({"draw": i, "mmu": mmu, "rival": rival, "n": n, "s": s, "density": density,
                    "mode": modes[int(u_mode * len(modes))], "seed": 1 + int(u_seed * (2 ** 31 - 1))})
    return out


def sha256(path):
    """The SHA-256 of a file, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def build_commit(tool):
    """(commit, dirty) of the binary: the build_info.json packed beside it (tools/scripts/gpu_suite.sh
    --pack), else its build tree's generated build_info.cpp (tools/build_info.cmake), else the source
    checkout's HEAD and whether tracked files changed."""
    packed = pathlib.Path(tool).resolve().parent / "build_info.json"
    if packed.exists():
        info = json.loads(packed.read_text())
        return info["commit"], bool(info["dirty"])
    info = pathlib.Path(tool).resolve().parent / "build_info.cpp"
    if info.exists():
        text = info.read_text()
        commit = re.search(r'build_commit\(\) \{ return "([^"]*)"', text)
        dirty = re.search(r"build_dirty\(\) \{ return (true|false)", text)
        if commit and dirty:
            return commit[1], dirty[1] == "true"
    root = HERE.parent
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--", ".",
                             ":!experiments/results"], capture_output=True, text=True).stdout
    return commit or "unknown", bool(status.strip())


def run_point(tool, point, algo, executor, profile, backend, repeat, has_executor, header):
    """One run of one algorithm of a drawn pair: the tool's CSV row, or a row carrying the error."""
    row = dict.fromkeys(header, "")
    row.update(algorithm=algo, n=point["n"], s=point["s"], mode=point["mode"], seed=point["seed"],
               backend=backend, density="" if point["density"] is None else point["density"])
    if not profile.exists():
        row["error"] = f"no profile {profile.name} (calibrate first)"
        return row
    if executor != "in-order" and not has_executor:
        row["error"] = f"this mmvram has no --executor: {executor} not run"
        return row
    args = [tool, "run", algo, "--n", str(point["n"]), "--s", str(point["s"]), "--mode", point["mode"],
            "--seed", str(point["seed"]), "--backend", backend, "--profile", str(profile), "--format", "csv"]
    if point["density"] is not None:
        args += ["--density", str(point["density"])]
    if backend == "cuda":
        args += ["--repeat", str(repeat)]
    if has_executor:
        args += ["--executor", executor]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=mmvram_data.heldout_env())
    except subprocess.TimeoutExpired:
        row["error"] = f"timed out after {RUN_TIMEOUT_S} s"
        return row
    got = list(csv.DictReader(done.stdout.splitlines()))
    if got:
        row.update({k: v for k, v in got[0].items() if k in row})
    if done.returncode != 0 and not row["error"]:
        lines = done.stderr.strip().splitlines()
        row["error"] = lines[-1] if lines else f"exit code {done.returncode}"
    return row


def executors_spec():
    """The executors a draw runs, with their profiles, predictions and measured column."""
    return {e: dict(spec, measured=mmvram_data.HELDOUT_MEASURED) for e, spec in mmvram_data.EXECUTORS.items()}


def resumed_manifest(man_path, csv_path, frozen):
    """The manifest of a cut draw and the rows of its finished pairs (all their runs in the CSV);
    exits with the reason when its seed, binary, profiles or executors differ from `frozen` (and
    this script's executors), or a kept row is not of the draw's seed, commit and profiles."""
    if not man_path.exists() or not csv_path.exists():
        sys.exit(f"heldout.py: --resume needs {man_path} and {csv_path} of a cut draw")
    manifest = json.loads(man_path.read_text())
    for key, value in dict(frozen, executors=executors_spec()).items():
        if value is not None and manifest.get(key) != value:
            sys.exit(f"heldout.py: --resume: the draw's {key} differs from this run's: not the same frozen model")
    if "draws" not in manifest or "wall_time_s" in manifest:
        sys.exit(f"heldout.py: --resume: {man_path} is not a cut draw (no draw, or it finished)")
    rows = list(csv.DictReader(open(csv_path)))
    for r in rows:
        if (r.get("heldout_seed") != str(manifest["seed"]) or r.get("commit") != manifest["commit"]
                or r.get("profile_sha256") != manifest["profiles_sha256"].get(r.get("profile"), "")):
            sys.exit(f"heldout.py: --resume: {csv_path} holds a run of another seed, commit or profile")
    runs = 2 * len(mmvram_data.EXECUTORS)
    done = {d for d in {r["draw"] for r in rows} if sum(r["draw"] == d for r in rows) == runs}
    return manifest, [r for r in rows if r["draw"] in done]


def command_run(a):
    """`run`: the manifest (frozen before the draw), the draw, then every run into heldout_<GPU>.csv."""
    results = pathlib.Path(a.results)
    profiles = {e: results / spec["profile"].format(gpu=a.gpu) for e, spec in mmvram_data.EXECUTORS.items()}
    if not profiles["in-order"].exists():
        sys.exit(f"heldout.py: {profiles['in-order']} missing: calibrate first")
    commit, dirty = build_commit(a.mmvram)
    hashes = {p.name: sha256(p) for p in sorted(set(profiles.values())) if p.exists()}
    man_path, csv_path = results / f"heldout_{a.gpu}.json", results / f"heldout_{a.gpu}.csv"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    kept = []
    if a.resume:
        manifest, kept = resumed_manifest(man_path, csv_path, {
            "commit": commit, "commit_dirty": dirty, "mmvram_sha256": sha256(a.mmvram), "profiles_sha256": hashes,
            "seed": a.seed, "pairs": a.pairs, "repeat": a.repeat, "backend": a.backend})
        seed = manifest["seed"]
    else:
        seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(8), "little") >> 1
        manifest = {"schema": "mmvram-heldout/1", "gpu": a.gpu, "device": a.device, "date_utc": now,
                    "commit": commit, "commit_dirty": dirty, "mmvram_sha256": sha256(a.mmvram),
                    "profiles_sha256": hashes, "seed": seed, "pairs": a.pairs, "repeat": a.repeat,
                    "backend": a.backend, "executors": executors_spec()}
        man_path.write_text(json.dumps(manifest, indent=1) + "\n")  # frozen before the draw
    print(f"heldout.py: seed {seed}, commit {commit[:12]}{' (dirty)' if dirty else ''}, profiles frozen "
          f"in {man_path}", flush=True)
    registry = tool_json(a.mmvram, "list", "--format", "json")
    points = draw(seed, a.pairs, registry, closed_form_steps(a.mmvram))
    if a.resume:
        if points != manifest["draws"]:
            sys.exit("heldout.py: --resume: this binary draws other points from the seed than the manifest holds")
        manifest.setdefault("resumed_utc", []).append(now)
    manifest["draws"] = points
    man_path.write_text(json.dumps(manifest, indent=1) + "\n")  # the draw, kept if the runs are cut
    has_executor = "--executor" in subprocess.run([a.mmvram, "help"], capture_output=True, text=True).stdout
    header = next(csv.reader(subprocess.run([a.mmvram, "run", "hillis-steele-scan", "--n", "4", "--format", "csv"],
                                            check=True, capture_output=True, text=True).stdout.splitlines()))
    start, failed = time.monotonic(), sum(bool(r.get("error")) for r in kept)
    finished = {r["draw"] for r in kept}
    if kept:
        print(f"heldout.py: resumed after {len(finished)} finished pairs", flush=True)
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=PREFIX + header, lineterminator="\n")
        w.writeheader()
        w.writerows(kept)
        f.flush()
        for p in points:
            if str(p["draw"]) in finished:
                continue
            for role in ("mmu", "rival"):
                for executor in mmvram_data.EXECUTORS:
                    row = run_point(a.mmvram, p, p[role], executor, profiles[executor], a.backend, a.repeat,
                                    has_executor, header)
                    failed += bool(row["error"])
                    profile = profiles[executor]
                    row.update(heldout_seed=seed, draw=p["draw"], pair=f"{p['mmu']}/{p['rival']}", role=role,
                               heldout_executor=executor, profile=profile.name,
                               profile_sha256=hashes.get(profile.name, ""), commit=commit,
                               commit_dirty=str(dirty).lower())
                    w.writerow(row)
                    f.flush()
            print(f"heldout.py: draw {p['draw'] + 1}/{len(points)} {p['mmu']}/{p['rival']} n={p['n']} s={p['s']} "
                  f"density={p['density']} {p['mode']} ({time.monotonic() - start:.0f} s)", flush=True)
    manifest["wall_time_s"] = round(time.monotonic() - start, 1)  # of this part, when resumed
    manifest["failed_runs"] = failed
    man_path.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"heldout.py: {csv_path}: {len(points) * 6} runs, {failed} failed (seed {seed})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("draw", "run"):
        p = sub.add_parser(name)
        p.add_argument("--seed", type=int, required=name == "draw")
        p.add_argument("--pairs", type=int, default=24)
        p.add_argument("--mmvram", default=str(HERE.parent / "build/cuda/tools/mmvram"))
        if name == "run":
            p.add_argument("--gpu", required=True)
            p.add_argument("--device", default="")
            p.add_argument("--results", required=True)
            p.add_argument("--repeat", type=int, default=5)
            p.add_argument("--backend", default="cuda")
            p.add_argument("--resume", action="store_true", help="go on with the cut draw in --results")
    a = parser.parse_args()
    if a.pairs < 1:
        sys.exit("heldout.py: --pairs takes a positive count")
    if not os.access(a.mmvram, os.X_OK):
        sys.exit(f"heldout.py: no mmvram binary at {a.mmvram}")
    if a.command == "draw":
        registry = tool_json(a.mmvram, "list", "--format", "json")
        for p in draw(a.seed, a.pairs, registry, closed_form_steps(a.mmvram)):
            print(json.dumps(p))
    else:
        command_run(a)


if __name__ == "__main__":
    main()

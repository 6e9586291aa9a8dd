"""Static instruction mix of CUDA kernels from `cuobjdump -sass` output: per kernel the number of
SASS instructions, of tensor-core instructions (HMMA, IMMA, DMMA, HGMMA), of special-function
instructions (MUFU) and of shared-memory loads/stores. Counts each instruction once as it stands
in the code (a loop body counts once), so it says what the code is made of, not what it executes.
usage: cuobjdump -sass BINARY | experiments/sass_mix.py [--match SUBSTRING] > mix.json
"""
import argparse
import json
import re
import sys

TENSOR = ("HMMA", "IMMA", "DMMA", "HGMMA", "IGMMA", "QGMMA")


def mix(text, match):
    kernels = {}
    for block in re.split(r"\n\s*Function : ", text)[1:]:
        name = block.split("\n", 1)[0].strip()
        if match and match not in name:
            continue
        ops = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", block)
        if not ops:
            continue
        base = [op.split(".")[0] for op in ops]
        kernels[name] = {
            "instructions": len(ops),
            "tensor_core": sum(b in TENSOR for b in base),
            "mufu": sum(b == "MUFU" for b in base),
            "shared_memory": sum(b in ("LDS", "STS") for b in base),
            "global_memory": sum(b in ("LDG", "STG") for b in base),
        }
    return kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--match", default="", help="keep kernels whose mangled name contains this")
    args = ap.parse_args()
    result = mix(sys.stdin.read(), args.match)
    if not result:
        sys.exit("sass_mix.py: no kernel found in the input")
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

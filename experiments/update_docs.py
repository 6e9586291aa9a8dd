#!/usr/bin/env python3
"""Regenerate the tool output embedded in the docs.

Every block of the form

    <!-- mmvram: run sscr --s 2 --values experiments/inputs/seed001_x.txt ... -->
    ```text
    ...output...
    ```

in any page under docs/ is replaced by the current stdout of `mmvram ARGS` (run from the
repository root). tests/tools/test_docs.cpp checks that the
committed blocks equal the tool's output, ignoring only the wall time's value (a block whose
only difference is that value is left as it is).

usage: experiments/update_docs.py [path/to/mmvram]   (default: build/cpu/tools/mmvram)
"""
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md"))
BLOCK = re.compile(r"(<!-- mmvram: (?P<args>.*?) -->\n```text\n)(?P<body>.*?)(```)", re.S)


def normalized(text: str) -> list:
    """The lines with the wall time's value blanked, as tests/tools/test_docs.cpp compares them."""
    return [re.sub(r"^(  wall time: |  \"wall_time_s\": ).*", r"\1<t>", line) for line in text.splitlines()]


def main() -> int:
    tool = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "cpu" / "tools" / "mmvram")
    for page in PAGES:
        if not page.exists():
            continue
        text = page.read_text()

        def render(match: re.Match) -> str:
            args = shlex.split(match.group("args"))
            run = subprocess.run([str(tool), *args], cwd=ROOT, capture_output=True, text=True)
            if run.returncode not in (0, 1):
                raise SystemExit(f"{page.name}: mmvram {match.group('args')} failed: {run.stderr.strip()}")
            if normalized(run.stdout) == normalized(match.group("body")):
                return match.group(0)  # only the wall time differs: keep the page as it is
            return match.group(1) + run.stdout + match.group(4)

        updated = BLOCK.sub(render, text)
        if updated != text:
            page.write_text(updated)
            print(f"updated {page.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How long a YAML alias bomb holds a core, with and without the guard (issue 15, item 9).

    python bench/yaml_bombs.py [--max-levels 12] [--unguarded-up-to 7]

Each bomb has ``levels`` anchors, each a list of nine aliases of the one before
(``tests/scenario/test_yaml_guard.py::bomb``). "guarded" is the library as it is:
``parse_text`` refuses the file before expanding it. "unguarded" is the same
code with ``check_expansion`` replaced by a no-op, i.e. the reader before the
guard (it expanded aliases up to a million values, walking them twice); it is
only run up to ``--unguarded-up-to`` levels because each level costs about
nine times the one before. Both columns are measured in this one run, side by
side, with ``uptime``'s load printed beside them.
"""

from __future__ import annotations

import argparse
import os
import time

from geomodel.scenario import ScenarioError, files


def bomb(levels: int, width: int = 9) -> str:
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    lines.append(f"name: [*a{levels - 1}]")
    return "\n".join(lines) + "\n"


def seconds_to_answer(text: str) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        files.parse_text(text, "bomb.yaml")
        answer = "parsed"
    except ScenarioError as error:
        answer = "refused: " + error.problems[0].message.split(";")[0][:60]
    return time.perf_counter() - started, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-levels", type=int, default=12)
    parser.add_argument("--unguarded-up-to", type=int, default=7)
    args = parser.parse_args()
    print(f"load average (1, 5, 15 min): {os.getloadavg()}")
    print(f"{'levels':>6} {'bytes':>6} {'guarded s':>10} {'unguarded s':>12} {'ratio':>8}  answer")
    guard = files.check_expansion
    for levels in range(3, args.max_levels + 1):
        text = bomb(levels)
        guarded, answer = seconds_to_answer(text)
        unguarded_text, ratio = "-", "-"
        if levels <= args.unguarded_up_to:
            files.check_expansion = lambda *_a, **_k: None
            try:
                unguarded, _ = seconds_to_answer(text)
            finally:
                files.check_expansion = guard
            unguarded_text, ratio = f"{unguarded:.3f}", f"{unguarded / max(guarded, 1e-6):,.0f}x"
        print(f"{levels:>6} {len(text):>6} {guarded:>10.4f} {unguarded_text:>12} {ratio:>8}  {answer}")


if __name__ == "__main__":
    main()

"""The code a profiled run executed, in instruction-cache lines: reads a callgrind output written
with --dump-instr=yes and prints the number of distinct 64-byte lines holding an executed
instruction (of every object file), then the lines per function, most first.

A query that starts with a cold instruction cache (the shuffled benchmark runs other libraries'
queries between two of hedra's) fetches each of these lines once; callgrind's own counts (Ir)
do not show that cost. Used by bench/tools/profile_small.sh; also by hand:

    valgrind --tool=callgrind --dump-instr=yes --toggle-collect=FUNCTION \
        --callgrind-out-file=OUT PROGRAM ...
    /usr/bin/python3 bench/tools/code_lines.py OUT [--top K]

The callgrind format (valgrind's docs/callgrind-format): "fn=(id) name" starts a function's
cost lines, each led by an instruction address (absolute 0x..., relative +N/-N, or * for the
same); the line after "calls=" is the call's cost, charged to the caller's call site only.
"""
import argparse
import re
import sys

LINE = 64
ADDRESS = re.compile(r"^(0x[0-9a-fA-F]+|[+-]\d+|\*)(\s|$)")
NAMED = re.compile(r"^(c?fn)=\((\d+)\)\s*(.*)$")
OBJECT = re.compile(r"^ob=\((\d+)\)")


def executed_lines(path):
    """Distinct (object, line) pairs per function name."""
    names, lines = {}, {}
    obj, current, last, after_calls = None, None, 0, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for text in f:
            text = text.rstrip("\n")
            named = NAMED.match(text)
            if named:
                kind, ident, name = named.groups()
                if name:
                    names[ident] = name
                if kind == "fn":
                    current = ident
                continue
            owner = OBJECT.match(text)
            if owner:
                obj = owner.group(1)
                continue
            if text.startswith("calls="):
                after_calls = True
                continue
            match = ADDRESS.match(text)
            if not match:
                continue
            token = match.group(1)
            if token.startswith("0x"):
                last = int(token, 16)
            elif token != "*":
                last += int(token)
            if after_calls:  # the call site's line, already counted as the caller's
                after_calls = False
                continue
            lines.setdefault(current, set()).add((obj, last // LINE))
    return {names.get(k, k): v for k, v in lines.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("callgrind_out")
    parser.add_argument("--top", type=int, default=0, help="also list the K largest functions")
    args = parser.parse_args()
    per_function = executed_lines(args.callgrind_out)
    every = set().union(*per_function.values()) if per_function else set()
    print(len(every))
    ranked = sorted(per_function.items(), key=lambda item: -len(item[1]))
    for name, lines in ranked[: args.top]:
        print(f"  {len(lines):5d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

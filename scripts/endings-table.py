#!/usr/bin/env python3
"""Writes the Markdown table of every chess ending in a folder, one row per
ending (positions, wins, draws, losses, the longest mate with a position that has
it, solve time, bytes) and the totals, from `tbquery info --json`.

    tbquery info --json --dir D | scripts/endings-table.py > table.md
"""
import json
import re
import sys


def pieces(tier):
    return len(tier) - 1  # every letter is a piece; "v" is not


def longest(extra):
    """The longest mate in moves of either side to move, with its FEN."""
    best = (0, "")
    for side in ("white to move", "black to move"):
        found = re.search(r"longest mate (\d+) moves?, e\.g\. (.+)$", extra.get(side, ""))
        if found and int(found.group(1)) > best[0]:
            best = (int(found.group(1)), found.group(2))
    return best


def main():
    listing = json.load(sys.stdin)
    rows = [t for t in listing["tables"] if t.get("game") == "chess" and "dtz" not in t["file"]]
    rows.sort(key=lambda t: (pieces(t["tier"]), "P" in t["tier"], t["tier"]))
    print("| ending | positions | wins | draws | losses | longest mate | e.g. | solve | bytes |")
    print("|---|--:|--:|--:|--:|--:|---|--:|--:|")
    total = {"positions": 0, "wins": 0, "draws": 0, "losses": 0, "solve_seconds": 0.0, "bytes": 0}
    for t in rows:
        moves, fen = longest(t.get("extra", {}))
        fen = f"`{fen}`" if fen else ""
        print(
            f"| {t['tier']} | {t['positions']:,} | {t['wins']:,} | {t['draws']:,} | {t['losses']:,} "
            f"| {moves} | {fen} | {t['solve_seconds']:.1f} s | {t['bytes']:,} |"
        )
        for key in total:
            total[key] += t[key]
    print(
        f"| **{len(rows)} endings** | {total['positions']:,} | {total['wins']:,} | {total['draws']:,} "
        f"| {total['losses']:,} | | | {total['solve_seconds']:.0f} s | {total['bytes']:,} |"
    )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the Markdown table of every chess ending in a folder, one row per
ending (positions, wins, draws, losses, the longest mate with a position that has
it, solve time, bytes of the DTM table and of the DTZ table beside it where there
is one) and the totals, the endings without pawns and with them apart, from
`tbquery info --json`.

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
    chess = [t for t in listing["tables"] if t.get("game") == "chess"]
    rows = [t for t in chess if "dtz" not in t["file"]]
    dtz = {t["tier"]: t["bytes"] for t in chess if "dtz" in t["file"]}
    rows.sort(key=lambda t: (pieces(t["tier"]), "P" in t["tier"], t["tier"]))
    print("| ending | positions | wins | draws | losses | longest mate | e.g. | solve | bytes | DTZ bytes |")
    print("|---|--:|--:|--:|--:|--:|---|--:|--:|--:|")
    keys = ("positions", "wins", "draws", "losses", "solve_seconds", "bytes", "dtz")
    totals = {part: dict.fromkeys(keys, 0) | {"endings": 0} for part in ("all", "pawnless", "pawns")}
    for t in rows:
        moves, fen = longest(t.get("extra", {}))
        fen = f"`{fen}`" if fen else ""
        beside = dtz.get(t["tier"])
        print(
            f"| {t['tier']} | {t['positions']:,} | {t['wins']:,} | {t['draws']:,} | {t['losses']:,} "
            f"| {moves} | {fen} | {t['solve_seconds']:.1f} s | {t['bytes']:,} "
            f"| {'' if beside is None else f'{beside:,}'} |"
        )
        for part in ("all", "pawns" if "P" in t["tier"] else "pawnless"):
            total = totals[part]
            total["endings"] += 1
            for key in keys:
                total[key] += (beside or 0) if key == "dtz" else t[key]
    for part, name in (("pawnless", "without pawns"), ("pawns", "with pawns"), ("all", "endings")):
        total = totals[part]
        if part != "all" and total["endings"] in (0, totals["all"]["endings"]):
            continue
        print(
            f"| **{total['endings']} {name}** | {total['positions']:,} | {total['wins']:,} "
            f"| {total['draws']:,} | {total['losses']:,} | | | {total['solve_seconds']:.0f} s "
            f"| {total['bytes']:,} | {total['dtz']:,} |"
        )


if __name__ == "__main__":
    main()

"""A player's results over time as a PNG (matplotlib, the ``chart`` extra).

One line per game played (its final score, in the order played), wins marked with a
star, so a run of stars or a slump shows at a glance. Texts from the database are drawn as
plain characters, never as mathtext (a name holding "$" is a name).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..play.display import plain


def results_chart(card: Mapping[str, Any], path: str | Path) -> Path:
    """Draw ``views.player_card``'s results to ``path`` (PNG); returns the path. The file
    is written whole or not at all.

    Top: the final score of every game, in the order played (one line per game, a star on
    each win). Bottom: wins so far, per game. The x axis counts games (several can share a
    day); its labels are the dates."""
    import matplotlib

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    results = card["results"]
    fig, (scores_ax, wins_ax) = plt.subplots(
        2, 1, figsize=(9, 6), dpi=100, sharex=True, height_ratios=(2, 1)
    )
    for game in sorted({r["game"] for r in results}):
        at = [i for i, r in enumerate(results, 1) if r["game"] == game]
        scores = [results[i - 1]["score"] for i in at]
        (line,) = scores_ax.plot(at, scores, marker="o", markersize=3, linewidth=1,
                                 label=_label(game))
        won = [i for i in at if results[i - 1]["won"]]
        if won:
            scores_ax.scatter(won, [results[i - 1]["score"] for i in won], marker="*", s=120,
                              color=line.get_color(), zorder=3)
        running, total = [], 0
        for i in at:
            total += results[i - 1]["won"]
            running.append(total)
        wins_ax.step(at, running, where="post", color=line.get_color(), label=_label(game))
    scores_ax.axhline(0, color="grey", linewidth=0.5)
    scores_ax.set_title(f"{plain(card['person'])}: every game's final score (star: a win)",
                        parse_math=False)
    scores_ax.set_ylabel("final score")
    for text in scores_ax.legend(loc="best", fontsize="small").get_texts():
        text.set_parse_math(False)
    wins_ax.set_ylabel("wins so far")
    step = max(1, len(results) // 8)
    ticks = list(range(1, len(results) + 1, step))
    wins_ax.set_xticks(ticks, [results[i - 1]["played"] for i in ticks], rotation=30,
                       ha="right", fontsize="small")
    wins_ax.set_xlabel("games in the order played")
    fig.tight_layout()
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp.png")
    fig.savefig(tmp, format="png")
    plt.close(fig)
    tmp.replace(target)
    return target


def _label(text: object) -> str:
    """A text from the database as a legend label: plain characters (``plain``), and never
    one that matplotlib hides (a label beginning with "_")."""
    return plain(text).lstrip("_") or "?"

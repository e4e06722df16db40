"""PNG plots of tournaments and analyses (matplotlib, ``pip install 'motherlode[plot]'``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from motherlode.core.errors import MotherlodeError


class PlotError(MotherlodeError):
    """Plotting is not possible (matplotlib missing, the file cannot be written)."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotError("plots need matplotlib: pip install 'motherlode[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    plt = _pyplot()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
    except OSError as err:
        raise PlotError(f"cannot write the plot {str(path)!r}: {err.strerror}") from None
    finally:
        plt.close(fig)
    return path


def plot_tournament(report: dict[str, Any], path: str | Path) -> Path:
    """Ratings (mu with a 2-sigma bar) and win rates (95% Wilson interval) per agent."""
    plt = _pyplot()
    summary = report["summary"]
    agents = summary["agents"]
    names = [a["agent"] for a in agents][::-1]
    rows = agents[::-1]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 1.2 + 0.55 * len(names)), sharey=True)
    ys = range(len(names))
    ax1.errorbar(
        [a["mu"] for a in rows],
        ys,
        xerr=[2 * a["sigma"] for a in rows],
        fmt="o",
        capsize=4,
    )
    ax1.set_yticks(list(ys), names)
    ax1.set_xlabel("openskill rating (mu ± 2 sigma)")
    ax1.grid(axis="x", alpha=0.3)
    rates = [a["win_rate"] for a in rows]
    low = [a["win_rate"] - a["win_low"] for a in rows]
    high = [a["win_high"] - a["win_rate"] for a in rows]
    ax2.barh(list(ys), rates, xerr=[low, high], capsize=4, color="#d4a017")
    for players in summary["players"]:
        ax2.axvline(1.0 / players, color="grey", linestyle="--", linewidth=1)
    ax2.set_xlim(0, 1)
    ax2.set_xlabel("win rate per seat (95% CI); dashed: 1/n")
    ax2.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{report['game']} tournament {report['tournament']}: {summary['games']} games")
    fig.tight_layout()
    return _save(fig, Path(path))


def plot_analysis(analysis: dict[str, Any], path: str | Path) -> Path:
    """Per config group: seat win shares with CIs, the length histogram, scores per seat."""
    plt = _pyplot()
    groups = analysis["groups"]
    if not groups:
        raise PlotError("nothing to plot: no stored games match")
    fig, axes = plt.subplots(len(groups), 3, figsize=(14, 3.4 * len(groups)), squeeze=False)
    for row, group in zip(axes, groups, strict=True):
        seats = group["seats"]
        xs = list(range(1, len(seats) + 1))
        rates = [s["win_share"] for s in seats]
        err_low = [s["win_share"] - s["win_low"] for s in seats]
        err_high = [s["win_high"] - s["win_share"] for s in seats]
        row[0].bar(xs, rates, yerr=[err_low, err_high], capsize=4, color="#d4a017")
        row[0].axhline(1.0 / len(seats), color="grey", linestyle="--", linewidth=1)
        row[0].set_xticks(xs)
        row[0].set_xlabel("seat")
        row[0].set_ylabel("win share (95% CI)")
        row[0].set_title(group["label"], fontsize=9)
        row[1].hist(group["lengths"], bins=min(30, max(5, len(set(group["lengths"])))))
        row[1].set_xlabel("game length (decisions)")
        row[1].set_ylabel("games")
        row[2].boxplot([s["scores"] for s in seats])
        row[2].set_xticks(xs)
        row[2].set_xlabel("seat")
        row[2].set_ylabel("final score")
    fig.suptitle(f"{analysis['game']}: {analysis['games']} stored games")
    fig.tight_layout()
    return _save(fig, Path(path))

"""Bench reports from a run's JSON data (``harness.report_json``): a bar chart of every ratio
against its target (``bench --plot PATH``, matplotlib from the ``bench`` extra) and the change
per figure against an earlier run (``bench --compare OLD.json``)."""
from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

MET, MISSED, NO_TARGET = "#2e7d32", "#c62828", "#78909c"


def _ratios(data: dict[str, Any]) -> Iterator[tuple[str, str, str, float, dict | None]]:
    """(family, case, label, value, target or None) of every ratio of a run, in run order."""
    for key, case in data["cases"].items():
        if case.get("error") or case.get("skipped"):
            continue
        for k, v in case["ratios"].items():
            yield case["family"], key, case["labels"].get(k, k), v, case["targets"].get(k)


def plot(data: dict[str, Any], path: str) -> int:
    """Draw each family's ratios (log scale) with their targets as ticks into ``path`` (PNG,
    SVG or PDF by its suffix); green met, red missed, grey no target. Returns the bars drawn."""
    try:
        import matplotlib
    except ImportError as err:
        raise SystemExit("darray bench --plot needs matplotlib: pip install 'darray[bench]'") from err
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter

    families: dict[str, list[tuple[str, float, dict | None]]] = {}
    for fam, key, label, value, target in _ratios(data):
        if value is not None and math.isfinite(value) and value > 0:
            families.setdefault(fam, []).append((f"{key.split('.', 1)[1]}: {label}", value, target))
    rows = sum(len(v) for v in families.values())
    height = 1.2 + 0.32 * rows + 0.5 * len(families)
    fig, axes = plt.subplots(len(families) or 1, 1, figsize=(12, height),
                             gridspec_kw={"height_ratios": [len(v) for v in families.values()] or [1]},
                             squeeze=False)
    for ax, (fam, bars) in zip(axes[:, 0], families.items()):
        y = range(len(bars))
        colours = [NO_TARGET if t is None else MET if t["met"] else MISSED for _, _, t in bars]
        ax.barh(list(y), [v for _, v, _ in bars], color=colours)
        for i, (_, _, t) in enumerate(bars):
            if t is not None:
                ax.plot([t["value"]] * 2, [i - 0.45, i + 0.45], color="black", linewidth=2)
        ax.axvline(1.0, color="black", linewidth=0.5, linestyle=":")
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.tick_params(axis="x", which="both", labelsize=7)
        ax.set_yticks(list(y), [name[:60] for name, _, _ in bars], fontsize=7)
        ax.invert_yaxis()
        ax.set_title(fam, fontsize=9, loc="left")
    env = data.get("environment", {})
    fig.suptitle(f"darray bench on {env.get('place', '?')}: ratios (bars) and targets (ticks)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / height))  # room for the title
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return rows


def _values(data: dict[str, Any]) -> dict[tuple[str, str], tuple[float, str, str]]:
    """(case, key) -> (value, unit or "x", label) for every figure and ratio of a run."""
    out = {}
    for key, case in data["cases"].items():
        for k, v in case.get("figures", {}).items():
            out[(key, k)] = (v, case["units"].get(k, ""), case["labels"].get(k, k))
        for k, v in case.get("ratios", {}).items():
            out[(key, k)] = (v, "x", case["labels"].get(k, k))
    return out


def compare(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Lines of a table: every figure and ratio both runs have, old -> new and the change."""
    before, after = _values(old), _values(new)
    lines = [f"{'case':<40} {'figure':<52} {'old':>10} {'new':>10} {'change':>8}"]
    for k in after:
        if k not in before:
            continue
        (v0, unit, _), (v1, _, label) = before[k], after[k]
        change = f"{(v1 / v0 - 1) * 100:+.1f}%" if v0 and math.isfinite(v0) and math.isfinite(v1) else "n/a"
        lines.append(f"{k[0][:40]:<40} {label[:52]:<52} {v0:>10.4g} {v1:>10.4g} {change:>8} {unit}".rstrip())
    only = sorted({c for c, _ in before} - {c for c, _ in after})
    if only:
        lines.append(f"only in the old run: {', '.join(only)}")
    return lines


def load(path: str) -> dict[str, Any]:
    """A run's JSON data (``bench --json``); ValueError naming the file when it is not one."""
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict) or "cases" not in data:
        raise ValueError(f"darray bench --compare: {path} is not a bench --json file")
    return data

"""Plots of accuracy:emulator's CSV (docs/accuracy/emulator.csv): predicted vs real load and
DOMContentLoaded for the emulator and Lantern, and the CDFs of |predicted - real| / real. Lossy
conditions (RATE/RTT/PROTO/LOSS) are kept apart, as in the harness's summary: drawn hollow in the
scatter and left out of the CDFs (the emulator has no loss model yet).
Writes emulator-scatter.{png,svg} and emulator-error-cdf.{png,svg} into OUT_DIR.

usage: python3 emulator/accuracy/plot_grid.py CSV OUT_DIR
"""

import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

TOOLS = [("emulator", "pcp emulate"), ("lantern", "Lantern"), ("lanternNoDns", "Lantern, no DNS")]
METRICS = [("load", "load"), ("dcl", "DOMContentLoaded")]


def lossy(row):
    return len(row["condition"].split("/")) > 3


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def scatter(rows, out):
    fig, axes = plt.subplots(1, 2, figsize=(11, 5))
    for ax, (m, label) in zip(axes, METRICS):
        real = [float(r[f"real_{m}_ms"]) for r in rows]
        top = 0.0
        for (tool, name), marker in zip(TOOLS, "o^s"):
            pred = [float(r[f"{tool}_{m}_ms"]) for r in rows]
            clean = [i for i, r in enumerate(rows) if not lossy(r)]
            apart = [i for i, r in enumerate(rows) if lossy(r)]
            dots = ax.scatter([real[i] for i in clean], [pred[i] for i in clean], label=name, marker=marker, alpha=0.7, s=22)
            if apart:
                ax.scatter([real[i] for i in apart], [pred[i] for i in apart], label=f"{name}, lossy", marker=marker, s=22,
                           facecolors="none", edgecolors=dots.get_facecolor()[0])
            top = max(top, *pred)
        top = max(top, *real) * 1.05
        ax.plot([0, top], [0, top], color="grey", lw=0.8, ls="--", label="predicted = real")
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
        ax.set_xlabel(f"real {label} (ms from navigation start, median of runs)")
        ax.set_ylabel(f"predicted {label} (ms)")
        ax.set_title(f"{label}: predicted vs real ({len(rows)} page x condition)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, out / "emulator-scatter")


def cdf(rows, out):
    rows = [r for r in rows if not lossy(r)]
    if not rows:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for ax, (m, label) in zip(axes, METRICS):
        for tool, name in TOOLS:
            errs = sorted(abs(float(r[f"{tool}_{m}_error"])) * 100 for r in rows)
            ys = [(i + 1) / len(errs) for i in range(len(errs))]
            ax.step(errs, ys, where="post", label=name)
        ax.set_xlabel(f"|predicted - real| / real, {label} (%)")
        ax.set_ylabel("fraction of page x condition (lossless)")
        ax.set_ylim(0, 1)
        ax.set_xlim(left=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, out / "emulator-error-cdf")


def save(fig, stem):
    for ext in ("png", "svg"):
        fig.savefig(f"{stem}.{ext}", dpi=110)
        print(f"wrote {stem}.{ext}")
    plt.close(fig)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    rows = read_rows(argv[1])
    if not rows:
        sys.stderr.write(f"plot_grid: {argv[1]} has no rows\n")
        return 1
    out = Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    scatter(rows, out)
    cdf(rows, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

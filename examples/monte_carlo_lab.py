# %% The Monte-Carlo laboratory as a notebook, in jupytext's percent format [markdown]
# # The Monte-Carlo laboratory, in a notebook
#
# This notebook runs ndoku's Metropolis chain from Python, as the Monte-Carlo laboratory
# tutorial does from the command line. Each result shows itself: its figures, and its energy
# against proposals when the chain kept a trace (`trace_every`). The same seed always gives
# the same chain: run again, every figure but the seconds comes back the same.
#
# It runs from the repository's root (as the documentation and the tests run it) or from
# `examples/`.

# %%
from pathlib import Path

from IPython.display import display

from ndoku import Schedule, metropolis, read_puzzles, tempering

EXAMPLES = Path("examples") if Path("examples").is_dir() else Path()
[samurai] = read_puzzles(EXAMPLES / "samurai.txt")
sudoku = read_puzzles(EXAMPLES / "data" / "euler50.txt")[0]  # Project Euler's first puzzle

# %% [markdown]
# ## A 9×9 puzzle
#
# Every box holds a permutation of its symbols. A proposal swaps two free cells of one box
# and is taken with probability min(1, exp(−ΔE/T)). The energy counts broken rules: it is 0
# exactly when the puzzle is solved.

# %%
display(sudoku)

# %%
metropolis(sudoku, seed=0, trace_every=500)

# %% [markdown]
# The energy falls fast, then wanders at a few conflicts until one move ends it.
#
# ## The Samurai at a few temperatures
#
# The bundled Samurai is five 9×9 grids: the centre one shares each of its corner boxes with
# an outer one. The chain is the same; only the temperature changes. Each run stops when
# solved, or after a million proposals.

# %%
display(samurai)

# %%
for temperature in (0.2, 0.3, 0.4):
    display(
        metropolis(
            samurai, temperature=temperature, seed=1, trace_every=5000, max_proposals=1_000_000
        )
    )

# %% [markdown]
# One seed says little: how long the wander lasts differs from seed to seed. Three seeds
# each, a few temperatures around the default:

# %%
for temperature in (0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
    runs = [
        metropolis(samurai, temperature=temperature, seed=seed, max_proposals=1_000_000)
        for seed in range(3)
    ]
    said = ", ".join(f"{r.proposals:,} ({r.stop})" for r in runs)
    print(f"T = {temperature}: {said}")

# %% [markdown]
# ## Too cold, too hot
#
# Too cold, the chain almost never takes a move that raises the energy: once it falls into
# a state that no swap improves, it stays there. Too hot, it takes so many uphill moves that
# it never settles. Each run below stops at 200,000 proposals if it is not solved first.

# %%
metropolis(sudoku, temperature=0.05, seed=1, trace_every=2000, max_proposals=200_000)

# %%
metropolis(sudoku, temperature=1.5, seed=1, trace_every=2000, max_proposals=200_000)

# %% [markdown]
# A cold chain is not always stuck: it depends on where its first descent ends. Four seeds
# at T = 0.05:

# %%
for seed in range(4):
    cold = metropolis(sudoku, temperature=0.05, seed=seed, max_proposals=200_000)
    print(f"seed {seed}: {cold.stop}, energy {cold.energy}, {cold.proposals:,} proposals")

# %% [markdown]
# ## Box moves and single moves
#
# Box swaps keep every box a permutation, so their energy counts only rows and columns.
# Single moves (`moves="single"`) give one free cell another value; their energy counts the
# pairs of peers that clash, a clash with a given costing more. Each move set runs at its own
# default temperature.

# %%
metropolis(samurai, moves="box", seed=0, trace_every=5000)

# %%
metropolis(samurai, moves="single", seed=0, trace_every=5000)

# %%
for moves in ("box", "single"):
    runs = [metropolis(samurai, moves=moves, seed=seed) for seed in range(3)]
    print(f"{moves}: " + ", ".join(f"{r.proposals:,} ({r.stop})" for r in runs))

# %% [markdown]
# ## An exponential schedule
#
# A schedule changes the temperature as the chain runs. The exponential one starts at `t0`
# and multiplies it by `alpha` after every sweep (as many proposals as free cells). The
# figures give the temperature the chain ended at.

# %%
cooling = Schedule("exponential", t0=1.0, alpha=0.99)
metropolis(sudoku, schedule=cooling, seed=1, trace_every=100, max_proposals=200_000)

# %% [markdown]
# ## Parallel tempering
#
# Tempering runs replicas of the chain on a ladder of temperatures, and lets neighbouring
# rungs trade states from time to time. Here the replicas are plain chains (`prune=False`);
# the figures give the ladder and the share of exchanges taken between each pair of rungs.
# The trace follows the lowest energy over the replicas.

# %%
tempering(samurai, prune=False, seed=1, trace_every=10_000)

# %% [markdown]
# By default tempering prunes first: propagation fixes every cell it can, and the replicas
# start from there. The figures say how many cells pruning fixed, and how many proposals
# the replicas made after it.

# %%
tempering(samurai, seed=1)

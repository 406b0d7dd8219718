# %% Layouts and generation as a notebook, in jupytext's percent format [markdown]
# # Layouts and generation, in a notebook
#
# This notebook reads layouts, makes puzzles of them, rates one, explains one step by step,
# solves one, and ends with a variant rule puzzle. Puzzles, outcomes, ratings and
# explanations show themselves: puzzles and outcomes as drawings, the others as HTML.
#
# It runs from the repository's root (as the documentation and the tests run it) or from
# `examples/`.

# %%
from pathlib import Path

from IPython.display import SVG, display

from ndoku import generate, layout_puzzle, rate, read_puzzles, solve
from ndoku.picture.drawing import picture
from ndoku.picture.svg import to_svg
from ndoku.tasks.explain import explain

EXAMPLES = Path("examples") if Path("examples").is_dir() else Path()

# %% [markdown]
# ## A bundled layout
#
# A layout is where the sub-grids are, with their boxes and extra units. ndoku ships its
# layouts in `layouts/`; `layout_puzzle` reads one by name, as the empty puzzle of that
# shape.

# %%
butterfly = layout_puzzle("butterfly")
print(butterfly.layout.description)
display(butterfly)

# %% [markdown]
# ## A layout written as text
#
# A layout is also plain text: `0` for every cell, `.` for every position that has no cell.
# Here two 4×4 grids share one corner box. ndoku finds the sub-grids from the shape; their
# top-left cells are printed as (row, column), from 0.

# %%
pair = read_puzzles(
    text="""
0 0 0 0 . .
0 0 0 0 . .
0 0 0 0 0 0
0 0 0 0 0 0
. . 0 0 0 0
. . 0 0 0 0
"""
)[0]
print(pair.layout.corners, pair.n_cells, "cells")
display(pair)

# %% [markdown]
# ## Generate
#
# `generate` makes a puzzle of a layout with one solution, proved. The same seed gives the
# same puzzle. Without a difficulty it removes every given that can go:

# %%
small = generate(pair, seed=1)
print(small.text)
display(small.puzzle)

# %% [markdown]
# With a difficulty, it draws solutions until a puzzle's solving path has that level. A
# twodoku at the intersections level; the first line of its text says how it came out:

# %%
twodoku = generate(layout_puzzle("twodoku"), difficulty="intersections", seed=2)
print(twodoku.text.splitlines()[0])
print(twodoku.attempts, "attempts")
display(twodoku.puzzle)

# %% [markdown]
# ## Rate
#
# A rating follows the path a person would take, and gives its level, its score and the
# techniques it used. Here a 9×9 made at the wings level, rated with three Metropolis chains
# for a second opinion:

# %%
wings = generate(layout_puzzle("9x9"), difficulty="wings", seed=3)
rate(wings.puzzle, chains=3)

# %% [markdown]
# ## Explain
#
# An explanation gives every step of that path in a sentence, with its technique's rating.

# %%
told = explain(wings.puzzle)
display(told)

# %% [markdown]
# Any step can be drawn on the board it starts from: its cells shaded, the value it places
# green, the candidates it removes struck out in red. The hardest step:

# %%
steps = told.path.steps
k = max(range(len(steps)), key=lambda k: steps[k].rating)
board = list(told.boards())[k]
print(f"{k + 1}. {told.text(k)}")
scene = picture(
    wings.puzzle,
    board.values,
    candidates=board.cand,
    step=steps[k],
    footer=f"step {k + 1}: {steps[k].technique}",
)
SVG(to_svg(scene))

# %% [markdown]
# ## Solve
#
# `solve` returns an outcome: the solution over the puzzle, givens bold and filled cells
# coloured, and how it was solved under it.

# %%
solve(twodoku.puzzle)

# %% [markdown]
# ## A variant rule puzzle
#
# Variant rules go after the grid, one a line. `examples/killer_samurai.txt` is a Samurai
# with killer cages: the cells of a cage hold different values that add up to its sum. Its
# first cages:

# %%
killer_text = (EXAMPLES / "killer_samurai.txt").read_text(encoding="utf-8")
print("\n".join([line for line in killer_text.splitlines() if line.startswith("cage")][:3]))
[killer] = read_puzzles(EXAMPLES / "killer_samurai.txt")
display(killer)

# %%
solve(killer)

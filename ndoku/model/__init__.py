"""The puzzle model: layouts, units and peers, the reading of a grid, and the Puzzle."""

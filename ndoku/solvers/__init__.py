"""Solvers: plain arrays in, numbers out (propagation, the exact search, the chains)."""

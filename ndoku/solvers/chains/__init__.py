"""Monte-Carlo chains: Metropolis with box, row or single-site moves, and parallel tempering."""

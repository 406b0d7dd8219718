"""What a command does, as library calls returning typed results (solve, verify, rate, …)."""

"""Reading text: tokens and alphabets to arrays (grid, alphabet), lists of numbers (numbers)."""

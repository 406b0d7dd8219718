"""Speed and success-rate goals of ndoku, measured by ``make bench`` (never in unit tests)."""

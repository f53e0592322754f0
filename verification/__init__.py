"""Cross-checks of the numeric layer against the exact one, and the claims registry."""

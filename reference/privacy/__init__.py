"""Privacy calibration: Gaussian (correlated) mechanisms, certified with rigorous ball arithmetic."""

"""Numeric layer: numpy, vectorised, reproducible from a ``numpy.random.Generator`` or a seed."""

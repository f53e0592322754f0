"""Audits to point at other people's implementations.

``calibration`` (certified verdicts on a claimed (ε, δ) or ρ for Gaussian, Laplace, ℓ2-Laplace and discrete
Gaussian noise), ``linear_noise`` (exact privacy of W x + B z: private at all, implied strategy, sensitivities,
ε or δ(ε), covariance against the CIP and KARY oracles), ``samplers`` (a sample of noise against the law it
should have, with a stated false-alarm probability).

At scale: ``sufficient`` (exact integer sums that blocks of runs add to in any order), the block-fed statistics
of each sampler audit (``cascade_stream``, with ``cascade_fold`` forming a block's sums in cache-sized tiles;
``whitened_moments``, ``design_moments``), and ``sampler_target`` /
``sampler_function`` (a user's sampler function drawn in seeded chunks, blocks run on Dask, power stated first).
"""

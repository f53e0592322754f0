"""What several CIP sections share: the paper's name and the helpers more than one section's checks use."""

from __future__ import annotations

PAPER = "CIP"


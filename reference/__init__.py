"""reference: an exact, formally checked reference implementation of CIP, KARY and TDA mechanisms."""

__version__ = "0.1.0"

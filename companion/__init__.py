"""The tabletop companion: an open-source referee for physical board games."""

__version__ = "0.1.0"

"""The tabletop companion: an open-source referee for physical board games."""

import pkgutil

# Extended like a namespace package's so a game can come in its own folder laid out as
# companion/games/<id>/ (see companion.games).
__path__ = pkgutil.extend_path(__path__, __name__)

__version__ = "0.1.0"

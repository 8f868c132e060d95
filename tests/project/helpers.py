"""What the project tests share besides fixtures."""

from __future__ import annotations

from pathlib import Path

import config

SETTINGS_FILE = Path(config.__file__).with_name("settings.py")

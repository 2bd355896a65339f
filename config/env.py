"""Small typed readers of the environment that fail loudly on a bad value."""

from __future__ import annotations

import os


class ConfigError(RuntimeError):
    """A setting in the environment has a value we cannot use."""


def env_str(name: str, default: str = "") -> str:
    """A string setting."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """A boolean setting: 1/true/yes/on or 0/false/no/off."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ConfigError(f"{name} must be a boolean (true/false), not {raw!r}")


def env_int(name: str, default: int, least: int | None = None,
            most: int | None = None) -> int:
    """An integer setting, at least `least` and at most `most` when given."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {raw!r}") from None
    if least is not None and value < least:
        raise ConfigError(f"{name} must be at least {least}, not {value}")
    if most is not None and value > most:
        raise ConfigError(f"{name} must be at most {most}, not {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list setting."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]

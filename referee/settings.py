"""The service's settings: one pydantic model, resolved in one place.

Each setting comes from, in order of precedence: the command line, the environment
(``REFEREE_<NAME>``, e.g. ``REFEREE_ADDRESS``), the TOML file given with ``--config``, then its
default. Secrets never come from the command line and are never logged.
"""

from __future__ import annotations

from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from referee.errors import RequestError

_CONFIG_FILE: ContextVar[Path | None] = ContextVar("config_file", default=None)


class Settings(BaseSettings):
    """How the referee service runs."""

    model_config = SettingsConfigDict(env_prefix="REFEREE_", extra="forbid")

    address: str = Field(
        default="referee@localhost",
        description="The referee's own address; players reply to plus-addresses of it.",
        pattern=r"^[^@\s+]+@[^@\s]+$",
    )
    games_dir: Path = Field(default=Path("games"), description="The folder of games.")
    mail_dir: Path | None = Field(
        default=None, description="The dir transport's folder (inbox, done, outbox …)."
    )
    max_message_bytes: int = Field(
        default=1_000_000, gt=0, description="Mail larger than this is set aside unread."
    )
    poll_seconds: float = Field(
        default=30.0, gt=0, description="How long to wait for mail between checks."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        config = _CONFIG_FILE.get()
        if config is None:
            return (init_settings, env_settings)
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, config))


def load_settings(config: Path | None = None, **given: Any) -> Settings:
    """The settings from ``given`` (the command line), the environment and ``config``."""
    if config is not None and not config.is_file():
        raise RequestError(f"no config file {config}")
    token = _CONFIG_FILE.set(config)
    try:
        return Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'config'}: {e['msg']}" for e in err.errors()
        )
        where = f" in {config}" if config else ""
        raise RequestError(f"the service's settings{where} are not valid: {problems}") from None
    finally:
        _CONFIG_FILE.reset(token)

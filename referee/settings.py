"""The service's settings: one pydantic model, resolved in one place.

Each setting comes from, in order of precedence: the command line, the environment
(``REFEREE_<NAME>``, e.g. ``REFEREE_ADDRESS``; a server's field with two underscores, e.g.
``REFEREE_IMAP__PASSWORD``), the TOML file given with ``--config``, then its default. Secrets
never come from the command line and are never logged: passwords are ``SecretStr``, which
prints as stars.
"""

from __future__ import annotations

from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from referee.errors import ConfigurationError

_CONFIG_FILE: ContextVar[Path | None] = ContextVar("config_file", default=None)


Security = Literal["tls", "starttls", "none"]


class Server(BaseModel):
    """How to reach and log in to one mail server."""

    model_config = {"extra": "forbid"}

    host: str = Field(description="The server's host name.")
    port: int | None = Field(default=None, gt=0, lt=65536, description="Default: by security.")
    security: Security = Field(
        default="tls",
        description="tls: TLS from the start; starttls: upgrade a plain connection; none: "
        "no encryption (only for a server on this machine).",
    )
    user: str | None = Field(default=None, description="The login name.")
    password: SecretStr | None = Field(
        default=None, description="The password: from the config file or the environment."
    )
    ca_file: Path | None = Field(
        default=None, description="Trust this certificate (a private CA) besides the system's."
    )
    timeout: float = Field(
        default=30.0, gt=0, description="Seconds before a silent server counts as gone."
    )

    def port_or_default(self, tls: int, starttls: int) -> int:
        if self.port is not None:
            return self.port
        return tls if self.security == "tls" else starttls


class Imap(Server):
    """The mailbox the referee reads."""

    folder: str = Field(default="INBOX", description="The folder new mail arrives in.")
    folder_prefix: str = Field(
        default="",
        description="Put before done, refused and quarantine (e.g. 'INBOX.' on servers "
        "that keep every folder under the inbox).",
    )
    idle: bool = Field(
        default=True, description="Wait with IMAP IDLE when the server offers it; else poll."
    )


class Smtp(Server):
    """The server the referee sends through."""

    security: Security = Field(default="starttls", description="As for imap.")


class Settings(BaseSettings):
    """How the referee service runs."""

    model_config = SettingsConfigDict(
        env_prefix="REFEREE_", env_nested_delimiter="__", extra="forbid"
    )

    address: str = Field(
        default="referee@localhost",
        description="The referee's own address; players reply to plus-addresses of it.",
        pattern=r"^[^@\s+]+@[^@\s]+$",
    )
    game_master: str | None = Field(
        default=None,
        description="The game master's address: told of mail the service could not handle.",
        pattern=r"^[^@\s]+@[^@\s]+$",
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
    templates_dir: Path | None = Field(
        default=None,
        description="A folder of templates that restyle the mails: each one found there is "
        "used instead of the shipped one of that name (the shipped templates/ folder).",
    )
    imap: Imap | None = Field(default=None, description="The imap transport: reading.")
    smtp: Smtp | None = Field(default=None, description="The imap transport: sending.")

    @property
    def transport(self) -> Literal["dir", "imap"] | None:
        """Which transport these settings ask for: None when they name none, or both."""
        if self.mail_dir is not None and self.imap is None and self.smtp is None:
            return "dir"
        if self.mail_dir is None and self.imap is not None and self.smtp is not None:
            return "imap"
        return None

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
        raise ConfigurationError(
            f"no config file {config}: give the right one with --config or $REFEREE_CONFIG"
        )
    token = _CONFIG_FILE.set(config)
    try:
        return Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'config'}: {e['msg']}" for e in err.errors()
        )
        where = f" in {config}" if config else ""
        raise ConfigurationError(
            f"the service's settings{where} are not valid: {problems}"
        ) from None
    finally:
        _CONFIG_FILE.reset(token)

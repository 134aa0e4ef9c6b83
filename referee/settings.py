"""The service's settings: one pydantic model, resolved in one place.

Each setting comes from, in order of precedence: the command line, the environment
(``REFEREE_<NAME>``, e.g. ``REFEREE_ADDRESS``; a server's field with two underscores, e.g.
``REFEREE_IMAP__PASSWORD``), the secrets file (``secrets_file``, or the open file the
installed ``referee`` command hands over: :mod:`referee.secrets_file`), the TOML file given
with ``--config``, then its default. Secrets never come from the command line and are never
logged: passwords are ``SecretStr``, which prints as stars.
"""

from __future__ import annotations

from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from referee.errors import ConfigurationError
from referee.secrets_file import Secrets, read_secrets
from referee.shards import Shards, listener_address

_CONFIG_FILE: ContextVar[Path | None] = ContextVar("config_file", default=None)
_SECRETS: ContextVar[Secrets | None] = ContextVar("secrets", default=None)
_SECTIONS: ContextVar[tuple[str, ...]] = ContextVar("sections", default=())


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
    retry_seconds: float = Field(
        default=5.0,
        gt=0,
        description="Seconds before a letter the server put off (a 4xx answer, a refused "
        "login) is tried again, doubled at each try up to an hour; the 8th try that fails "
        "fails for good (referee outbox). A server that does not answer at all costs a "
        "letter no try: its letters wait for it (docs/mail-server.md).",
    )


#: An LMTP listener: HOST:PORT (127.0.0.1:2424, [::1]:2424) or unix:/path/to/socket.
LISTENER = r"^(unix:/\S+|\[[0-9A-Fa-f:.]+\]:\d{1,5}|[^\s:\[\]]+:\d{1,5})$"


class Lmtp(BaseModel):
    """Mail handed straight to the service by the mail server (LMTP), as Postfix hands mail
    to Dovecot or to Mailman: no mailbox between them (docs/mail-server.md, "LMTP")."""

    model_config = {"extra": "forbid"}

    listen: str = Field(
        description="Where the service listens: HOST:PORT (127.0.0.1:2424, [::1]:2424) or "
        "unix:/path/to/socket.",
        pattern=LISTENER,
    )
    folder: Path | None = Field(
        default=None,
        description="Where each mail handed over is kept, written to disk before the server "
        "is told it was taken, until it is handled and filed (inbox, done, refused, "
        "quarantine). Default: .lmtp in the games folder.",
    )

    workers: list[Annotated[str, Field(pattern=LISTENER)]] = Field(
        default_factory=list,
        description="Sharded: every worker's LMTP listener (HOST:PORT or unix:/path), in the "
        "same order on every worker; each keeps the games whose id ends in its letters "
        "(docs/scaling.md). Empty: this service keeps every game.",
    )
    shard: int | None = Field(
        default=None,
        description="Sharded: which of the workers this one is (1 for the first).",
    )
    moved: dict[str, int] = Field(
        default_factory=dict,
        description="Sharded: games moved off the worker the rule gives them to, each with "
        "the number of the worker that keeps it now (the same on every worker).",
    )

    @field_validator("listen")
    @classmethod
    def _a_port(cls, value: str) -> str:
        if not value.startswith("unix:") and not 0 < int(value.rpartition(":")[2]) < 65536:
            raise ValueError(f"{value!r}: a port is 1 to 65535")
        return value

    @model_validator(mode="after")
    def _a_plan(self) -> Lmtp:
        if self.workers and self.shard is None:
            raise ValueError("with workers, say which one this is: shard = 1 (the first) …")
        if self.shard is not None and not self.workers:
            raise ValueError("shard needs workers: every worker's listener, in order")
        self.shards()  # the numbers in range
        return self

    def shards(self) -> Shards:
        """Which worker keeps which games (one keeps all when not sharded)."""
        return Shards(tuple(self.workers), self.shard or 1, dict(self.moved))

    def where(self) -> tuple[str, int] | str:
        """(host, port) for a TCP listener, or the path of a unix socket."""
        return listener_address(self.listen)


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
    keep_filed_days: float = Field(
        default=28.0,
        ge=0,
        description="How long the dir and lmtp transports keep each mail they have handled "
        "(done/, refused/, quarantine/) before the daily sweep removes it; 0: for ever. A mail "
        "set aside for the game master stays until handed back; each game's trail keeps its "
        "own copy of the mails about it.",
    )
    templates_dir: Path | None = Field(
        default=None,
        description="A folder of templates that restyle the mails: each one found there is "
        "used instead of the shipped one of that name (the shipped templates/ folder).",
    )
    language: str = Field(
        default="en",
        description="The language of letters to those who chose none and whose game has none: "
        "en, cy, is, eo or bn (docs/languages.md).",
    )
    imap: Imap | None = Field(default=None, description="The imap transport: reading.")

    @field_validator("language")
    @classmethod
    def _a_language(cls, value: str) -> str:
        from referee.wording.vocabulary import languages

        if value not in languages():
            raise ValueError(f"no language {value!r}: the languages are {', '.join(languages())}")
        return value

    smtp: Smtp | None = Field(default=None, description="The imap and lmtp transports: sending.")
    lmtp: Lmtp | None = Field(
        default=None, description="The lmtp transport: mail handed over by the mail server."
    )
    secrets_file: Path | None = Field(
        default=None,
        description="A file of NAME=value lines (REFEREE_IMAP__PASSWORD=…), each value taken "
        "literally: the passwords, kept out of the config file.",
    )
    private_domains: list[str] = Field(
        default_factory=list,
        description="Special-use domains (test, local, localhost, arpa …) whose addresses may "
        "play, for a private mail system; the referee's own domain always may.",
    )
    trusted_authserv_id: str | None = Field(
        default=None,
        description="The name (authserv-id) the receiving mail server writes in the "
        "Authentication-Results headers it adds: a command to the referee's own address "
        "whose sender it vouches for (DMARC, or DKIM aligned with From) takes effect without "
        "a confirmation. Set it only for a server that removes such headers claiming its name "
        "from the mail it receives (docs/mail.md, 'Who may move').",
        pattern=r"^[^\s;]+$",
    )

    _secrets: Secrets | None = PrivateAttr(default=None)

    @property
    def secrets(self) -> Secrets | None:
        """The secrets file these settings read, if any (for `referee doctor`)."""
        return self._secrets

    @property
    def transport(self) -> Literal["dir", "imap", "lmtp"] | None:
        """Which transport these settings ask for: None when they name none, or more than
        one."""
        servers = (self.imap is not None, self.lmtp is not None, self.smtp is not None)
        if self.mail_dir is not None:  # letters into it; mail in from it, or over LMTP
            if servers == (False, False, False):
                return "dir"
            return "lmtp" if servers == (False, True, False) else None
        if servers == (True, False, True):
            return "imap"
        if servers == (False, True, True):
            return "lmtp"
        return None

    def shards(self) -> Shards:
        """Which worker keeps which games: the lmtp settings' plan, or one service keeping
        every game."""
        return self.lmtp.shards() if self.lmtp is not None else Shards()

    @property
    def lmtp_folder(self) -> Path:
        """Where the lmtp transport keeps the mail handed over."""
        folder = self.lmtp.folder if self.lmtp is not None else None
        return folder if folder is not None else self.games_dir / ".lmtp"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        found: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        secrets = _SECRETS.get()
        if secrets is not None:
            found.append(_SecretsSource(settings_cls, secrets))
        config = _CONFIG_FILE.get()
        if config is not None:
            found.append(TomlConfigSettingsSource(settings_cls, config))
        return tuple(found)


class _SecretsSource(PydanticBaseSettingsSource):
    """The values of a secrets file, between the environment and the config file."""

    def __init__(self, settings_cls: type[BaseSettings], secrets: Secrets) -> None:
        super().__init__(settings_cls)
        self.secrets = secrets
        self.sections = _SECTIONS.get()

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # all at once, in __call__

    def __call__(self) -> dict[str, Any]:
        return self.secrets.settings(self.sections)


def secret_names() -> set[tuple[str, ...]]:
    """The settings a secrets file may give, as paths: ("imap", "password") …"""
    names: set[tuple[str, ...]] = set()
    for name in Settings.model_fields:
        if name in ("imap", "smtp"):
            server = Imap if name == "imap" else Smtp
            names.update((name, field) for field in server.model_fields)
        elif name != "secrets_file":
            names.add((name,))
    return names


def load_settings(config: Path | None = None, **given: Any) -> Settings:
    """The settings from ``given`` (the command line), the environment and ``config``."""
    if config is not None and not config.is_file():
        raise ConfigurationError(
            f"no config file {config}: give the right one with --config or $REFEREE_CONFIG"
        )
    token = _CONFIG_FILE.set(config)
    given = {k: v for k, v in given.items() if v is not None}
    try:
        plain = Settings(**given)
        secrets = read_secrets(plain.secrets_file, secret_names())
        if secrets is None or not secrets.values:
            return plain
        told = _SECRETS.set(secrets)
        sections = _SECTIONS.set(tuple(n for n in ("imap", "smtp") if getattr(plain, n)))
        try:
            loaded = Settings(**given)
            loaded._secrets = secrets
            return loaded
        finally:
            _SECRETS.reset(told)
            _SECTIONS.reset(sections)
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

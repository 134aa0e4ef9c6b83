"""The expert bot's learned evaluation: each seat's chance of winning from a position.

A model scores every seat still in from its row of :mod:`referee.bots.features` and turns
the scores into shares of a win by a softmax over those seats (a multinomial logit with
one score per seat: the winner is drawn as in the Plackett-Luce model's first place)::

    z      = (row - mean) / scale                        the features, standardised
    score  = weights . z + out . tanh(hidden . z + bias)  a linear part and a small layer
    share  = exp(score) / sum over the seats still in of exp(score)

The numbers are data, made by ``scripts/train-bot`` from games the bots play against
themselves, and shipped in the package as ``referee/data/expert.json`` (read with
:mod:`importlib.resources`, so an installed wheel finds it). The file names the features it
was trained on, the script's version and the command that made it; a model whose feature
names differ from :data:`referee.bots.features.NAMES` is refused, never misread. Reading a
model runs nothing: it is JSON, checked number by number.

The evaluation is plain Python (a few hundred multiplications a seat): the service needs no
numerical library to play, only the training script does.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from referee.bots.features import NAMES, features
from referee.engine import GameState

#: The model shipped with the package, in ``referee/data``.
MODEL_FILE = "expert.json"
#: The version of the model file's layout that this module reads.
FORMAT = 1


class ModelError(ValueError):
    """A model file this module cannot use: not JSON, another layout, other features."""


@dataclass(frozen=True, slots=True)
class Model:
    """A learned evaluation: standardisation, a linear part and one small hidden layer
    (``hidden`` may be empty), and what made it (``made``: the script, its version, the
    command, the seed, the games and positions, the CPU time)."""

    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    hidden: tuple[tuple[float, ...], ...]
    bias: tuple[float, ...]
    out: tuple[float, ...]
    made: dict[str, Any]

    def shares(self, state: GameState) -> list[float]:
        """Each seat's chance of winning ``state`` (0 for a seat that resigned)."""
        return Judge(self).shares(state)

    def to_json(self) -> dict[str, Any]:
        """The model as the JSON object its file holds."""
        return {
            "format": FORMAT,
            "features": list(self.names),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "hidden": [list(unit) for unit in self.hidden],
            "bias": list(self.bias),
            "out": list(self.out),
            "made": self.made,
        }


class Judge:
    """A model ready to evaluate many positions: the standardisation folded into the weights
    once (``(x - m) / s . w`` is ``x . (w / s) - m . (w / s)``), so a seat costs one pass over
    its row for the linear part and one for each hidden unit."""

    __slots__ = ("linear", "units")

    def __init__(self, model: Model) -> None:
        def folded(weights: Sequence[float], bias: float) -> tuple[tuple[float, ...], float]:
            scaled = tuple(w / s for w, s in zip(weights, model.scale, strict=True))
            return scaled, bias - sum(w * m for w, m in zip(scaled, model.mean, strict=True))

        self.linear = folded(model.weights, 0.0)
        self.units = tuple(
            (*folded(unit, b), o)
            for unit, b, o in zip(model.hidden, model.bias, model.out, strict=True)
        )

    def scores(self, rows: Sequence[Sequence[float] | None]) -> list[float | None]:
        """Each seat's score from its row (None where the row is None: the seat resigned)."""
        weights, constant = self.linear
        units = self.units
        found: list[float | None] = []
        for row in rows:
            if row is None:
                found.append(None)
                continue
            total = constant + sum([w * x for w, x in zip(weights, row, strict=True)])
            for unit, b, o in units:
                total += o * math.tanh(b + sum([w * x for w, x in zip(unit, row, strict=True)]))
            found.append(total)
        return found

    def shares(self, state: GameState) -> list[float]:
        """Each seat's chance of winning ``state`` (0 for a seat that resigned)."""
        found = self.scores(features(state))
        top = max(s for s in found if s is not None)
        weights = [0.0 if s is None else math.exp(s - top) for s in found]
        total = sum(weights)
        return [w / total for w in weights]


def _numbers(data: dict[str, Any], key: str, size: int) -> tuple[float, ...]:
    values = data.get(key)
    if (
        not isinstance(values, list)
        or len(values) != size
        or not all(isinstance(v, int | float) and math.isfinite(v) for v in values)
    ):
        raise ModelError(f"the model's {key!r} is not a list of {size} finite numbers")
    return tuple(float(v) for v in values)


def model_of(data: object) -> Model:
    """The model in ``data`` (a model file's JSON object); ModelError if it is not one this
    version of the bot can use."""
    if not isinstance(data, dict):
        raise ModelError("a model file holds a JSON object")
    if data.get("format") != FORMAT:
        raise ModelError(f"the model's format is {data.get('format')!r}, not {FORMAT}")
    names = data.get("features")
    if names != list(NAMES):
        raise ModelError(
            "the model was trained on other features than referee.bots.features.NAMES: "
            "train it again with scripts/train-bot"
        )
    width = len(NAMES)
    hidden_rows = data.get("hidden")
    if not isinstance(hidden_rows, list):
        raise ModelError("the model's 'hidden' is not a list of rows")
    hidden = tuple(_numbers({"hidden": row}, "hidden", width) for row in hidden_rows)
    made = data.get("made", {})
    if not isinstance(made, dict):
        raise ModelError("the model's 'made' is not an object")
    scale = _numbers(data, "scale", width)
    if any(s <= 0 for s in scale):
        raise ModelError("the model's 'scale' has a number that is not positive")
    return Model(
        names=tuple(NAMES),
        mean=_numbers(data, "mean", width),
        scale=scale,
        weights=_numbers(data, "weights", width),
        hidden=hidden,
        bias=_numbers(data, "bias", len(hidden)),
        out=_numbers(data, "out", len(hidden)),
        made=made,
    )


@cache
def shipped_model() -> Model:
    """The model shipped in the package (read once)."""
    text = resources.files("referee").joinpath("data", MODEL_FILE).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ModelError(f"referee/data/{MODEL_FILE} is not JSON: {error}") from error
    return model_of(data)

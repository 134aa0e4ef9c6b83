"""The engine is pure: it imports only the standard library and referee.errors."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import referee.engine

ENGINE = Path(referee.engine.__file__).parent


def test_engine_imports_only_the_standard_library_and_referee_errors() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                allowed = (
                    top in sys.stdlib_module_names
                    or name == "referee.errors"
                    or name.startswith("referee.engine")
                )
                assert allowed, f"{path.name} imports {name}"


def test_engine_does_no_io_nor_reads_the_clock() -> None:
    forbidden = {"open", "print", "input", "time", "datetime", "os", "socket", "subprocess"}
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | {
            n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
        }
        assert not (used | modules) & forbidden, path.name


def test_the_game_masters_operations_know_no_mail() -> None:
    """games.py decides and records; it tells a herald what happened, and the mail package
    turns that into letters (DESIGN.md: "Growing without knots")."""
    path = ENGINE.parent / "games.py"
    tree = ast.parse(path.read_text(), str(path))
    modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | {
        n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert not [m for m in modules if m.startswith("referee.mail")]

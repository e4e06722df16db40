"""The layout keeps the architecture (issue 29, docs/new-game.md): no import cycle inside
``motherlode``; ``core`` imports no game and nothing above it; a game's rules (``game.py``)
import nothing built on them; no function-local import of a module of the same package;
every game package has one shape. The import graph is read with ``ast``, not by importing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import motherlode
from motherlode.core.protocol import State
from motherlode.games import registry

SRC = Path(motherlode.__file__).parent
LAYERS = ["core", "games", "agents", "arena", "adapters", "server"]
"""From the bottom up: a layer may import the layers below it, never one above."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom) -> list[str]:
    if node.level:
        base = module.split(".")
        package = base if MODULES[module].name == "__init__.py" else base[:-1]
        package = package[: len(package) - node.level + 1]
        prefix = ".".join(package + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    out = []
    for alias in node.names:
        full = f"{prefix}.{alias.name}"
        out.append(full if full in MODULES else prefix)
    return out


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(module: str) -> tuple[set[str], set[str]]:
    """``(at import time, inside functions)``: the motherlode modules ``module`` imports
    (imports under ``if TYPE_CHECKING:`` are for the type checker only and left out)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    top: set[str] = set()
    local: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                continue
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                names = _resolve(module, child)
            for name in names:
                if name.startswith("motherlode"):
                    (local if in_function else top).add(name)
            visit(child, inner)

    visit(tree, False)
    return top & MODULES.keys() | {n for n in top if n in MODULES}, local


GRAPH = {m: imports(m)[0] for m in MODULES}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_no_import_cycle_inside_motherlode() -> None:
    seen: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def walk(module: str, path: list[str]) -> None:
        seen[module] = 1
        for target in sorted(GRAPH[module]):
            if target == module or target not in GRAPH:
                continue
            if seen.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in seen:
                walk(target, [*path, target])
        seen[module] = 2

    for module in sorted(GRAPH):
        if module not in seen:
            walk(module, [module])
    assert cycles == [], "\n".join(" -> ".join(c) for c in cycles)


def test_no_layer_imports_one_above_it() -> None:
    wrong = []
    for module in MODULES:
        mine = _layer(module)
        for target in set().union(*imports(module)):  # inside functions too
            theirs = _layer(target)
            if mine is not None and theirs is not None and theirs > mine:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_no_function_local_import_of_a_module_of_the_same_package() -> None:
    wrong = []
    for module in MODULES:
        package = module.rsplit(".", 1)[0] if MODULES[module].name != "__init__.py" else module
        if package == "motherlode":
            continue  # the command line imports its subcommands' layers late, to start fast
        for target in imports(module)[1]:
            if (module, target) in LATE_ON_PURPOSE:
                continue
            if target.rsplit(".", 1)[0] == package:  # a sibling module, or the package's own
                wrong.append(f"{module} imports {target} inside a function")
    assert wrong == [], "\n".join(wrong)


LATE_ON_PURPOSE = {
    ("motherlode.server.cli", "motherlode.server.app"):
        "the web server is an optional extra: 'motherlode verify' works without FastAPI",
    ("motherlode.server.cli", "motherlode.server.accounts"):
        "reset-password needs the [server] extra; 'motherlode verify' works without it",
    ("motherlode.server.cli", "motherlode.server.db"):
        "reset-password needs the [server] extra; 'motherlode verify' works without it",
    ("motherlode.games.eurorails.board", "motherlode.games.eurorails.places"):
        "places builds its names from the board: a module-level import would be circular",
    ("motherlode.research.batched.yukon", "motherlode.research.batched.yukon_jax"):
        "the JAX backend uses the numpy one's tables (circular) and loads JAX only when asked",
}
"""Function-local imports kept on purpose, each with its reason."""

RULES_MAY_NOT_IMPORT = ("notation", "render", "bot", "commands", "view")


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_game_package_has_the_one_shape(name: str) -> None:
    """The checklist of docs/new-game.md."""
    package = SRC / "games" / name
    for part in ("__init__.py", "game.py", "notation.py", "render.py", "bot.py"):
        assert (package / part).is_file(), f"{name}: no {part}"
    assert any((package / "data").glob("*.json")), f"{name}: no data/*.json"
    cls = registry()[name]
    prefix = cls.__name__.removesuffix("Game")
    assert cls.__name__ == f"{prefix}Game" and cls.Config.__name__ == f"{prefix}Config"
    state = cls.from_config().new_initial_state()
    assert type(state).__name__ == f"{prefix}State"
    assert type(state).__module__ == cls.__module__ == f"motherlode.games.{name}.game"
    # wired one way: the notation, the boards and the bots come from the package
    assert cls.notation is not None and type(state).notation is cls.notation
    assert type(state).renderer is not None and cls.bot_factories
    rules = f"motherlode.games.{name}.game"
    for hook in ("_action_to_string", "_parse_action", "_explain_illegal", "serialize",
                 "render_svg", "render_text", "__str__", "deserialize", "bots"):
        owner = type(state) if hasattr(State, hook) else cls
        where = getattr(getattr(owner, hook), "__module__", "")
        assert where != rules, f"{name}: {hook} is defined in the rules instead of wired"
    banned = {f"motherlode.games.{name}.{part}" for part in RULES_MAY_NOT_IMPORT}
    assert GRAPH[rules] & banned == set(), f"{rules} imports what is built on it"

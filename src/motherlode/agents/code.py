"""Agents from code: ``py:MODULE:FACTORY`` and ``py:path/to/file.py:CLASS`` specs.

The target is a module on ``sys.path`` (the current directory included) or a Python file,
and a callable in it (a factory function or an :class:`~motherlode.core.agent.Agent`
class; dots reach inside: ``Outer.make``). Parameters follow as for any agent,
``py:mypolicy:make:depth=3,temperature=0.5``; each is coerced by the callable's annotation
(``int``, ``float``, ``bool``, ``str``; unannotated ones as for game bots) and passed as a
keyword, with ``game=`` and ``seed=`` too when the callable takes them. What it returns
is the agent: an ``Agent``, or any object with an ``act(state) -> action`` method.

Running a spec runs its code, so code agents are refused unless the caller allows them:
``allowed=True`` (the command line, the arena, local research) or an operator's list of
targets (a server: :func:`operator_allowed`); the default, ``False``, refuses them, so a
visitor's spec never imports anything.

>>> spec = "py:motherlode.core.agent:RandomAgent:seed=3"
>>> parse_code_spec(spec)
('motherlode.core.agent', 'RandomAgent', {'seed': '3'})
>>> import motherlode
>>> game = motherlode.load("yukon")
>>> make_code_agent(spec, game, seed=0, allowed=True).seed
3
>>> make_code_agent(spec, game, seed=0, allowed=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
motherlode.core.errors.AgentSpecError: agent spec 'py:motherlode.core.agent:RandomAgent:seed=3': \
agents from code are not allowed here ...
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from motherlode.core.agent import Agent
from motherlode.core.errors import AgentSpecError
from motherlode.core.protocol import Action, Game, State

PREFIX = "py:"
"""Specs of agents from code start with this."""

Allowed = bool | Collection[str]
"""Which code agents :func:`make_code_agent` may run: all (``True``), none (``False``) or
the targets listed (``"module:factory"``, ``"path/file.py:Class"``)."""

_SCALARS: dict[Any, type] = {int: int, float: float, bool: bool, str: str}
_NAMED: dict[str, type] = {"int": int, "float": float, "bool": bool, "str": str}


def is_code_spec(spec: str) -> bool:
    """Whether ``spec`` names an agent from code (``py:...``)."""
    return spec.strip().lower().startswith(PREFIX)


def parse_code_spec(spec: str) -> tuple[str, str, dict[str, str]]:
    """``py:MODULE:FACTORY[:key=value,...]`` as ``(module or file, factory, raw params)``.

    >>> parse_code_spec("py:agents/mine.py:Greedy:depth=2, noise=0.1")
    ('agents/mine.py', 'Greedy', {'depth': '2', 'noise': '0.1'})
    """
    text = spec.strip()
    body = text[len(PREFIX) :]
    module, sep, rest = body.partition(":")
    factory, _, raw = rest.partition(":")
    if not sep or not module.strip() or not factory.strip():
        raise AgentSpecError(
            f"agent spec {text!r}: a code agent is py:MODULE:FACTORY or py:FILE.py:CLASS,"
            " then :key=value,... (e.g. py:mypolicy:make:depth=3)"
        )
    params: dict[str, str] = {}
    for part in raw.split(",") if raw.strip() else []:
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(f"agent spec {text!r}: parameter {part!r} is not key=value")
        if key.strip() in params:
            raise AgentSpecError(f"agent spec {text!r}: parameter {key.strip()!r} given twice")
        params[key.strip()] = value.strip()
    return module.strip(), factory.strip(), params


def target_of(spec: str) -> str:
    """The ``MODULE:FACTORY`` a code spec runs (what an allow-list lists).

    >>> target_of("py:mypolicy:make:depth=3")
    'mypolicy:make'
    """
    module, factory, _ = parse_code_spec(spec)
    return f"{module}:{factory}"


def operator_allowed(listed: Iterable[str]) -> frozenset[str]:
    """A server's ``allowed``: the code agents its operator lists (``py:`` and any
    parameters may be written; only the target counts), never a visitor's choice.

    >>> sorted(operator_allowed(["py:mypolicy:make:depth=3", "bots.py:Strong"]))
    ['bots.py:Strong', 'mypolicy:make']
    """
    out = set()
    for entry in listed:
        entry = entry.strip()
        if entry:
            out.add(target_of(entry if is_code_spec(entry) else PREFIX + entry))
    return frozenset(out)


def _permitted(target: str, allowed: Allowed) -> bool:
    if isinstance(allowed, bool):
        return allowed
    return target in allowed


def _load_file(path_text: str, spec: str) -> ModuleType:
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise AgentSpecError(f"agent spec {spec!r}: no Python file {path_text!r}")
    # one stable module name per file, registered so that its classes pickle
    name = "motherlode_code_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise AgentSpecError(f"agent spec {spec!r}: cannot load {path_text!r} as Python")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module
    try:
        loader_spec.loader.exec_module(module)
    except Exception as err:
        del sys.modules[name]
        raise AgentSpecError(f"agent spec {spec!r}: {path_text} failed to load: {err!r}") from None
    return module


def _load_module(name: str, spec: str) -> ModuleType:
    if name.endswith(".py") or "/" in name or os.sep in name:
        return _load_file(name, spec)
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # a module next to where the command runs
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        raise AgentSpecError(
            f"agent spec {spec!r}: no module {err.name!r} (looked on sys.path and in {os.getcwd()})"
        ) from None
    except Exception as err:
        raise AgentSpecError(
            f"agent spec {spec!r}: module {name} failed to load: {err!r}"
        ) from None


def _resolve(module: ModuleType, dotted: str, spec: str) -> Callable[..., Any]:
    obj: Any = module
    for part in dotted.split("."):
        if not hasattr(obj, part):
            public = sorted(n for n in dir(module) if not n.startswith("_"))
            raise AgentSpecError(
                f"agent spec {spec!r}: {module.__name__} has no {dotted!r}; it has"
                f" {', '.join(public) or 'nothing public'}"
            )
        obj = getattr(obj, part)
    if not callable(obj):
        raise AgentSpecError(f"agent spec {spec!r}: {dotted} is not callable")
    return obj  # type: ignore[no-any-return]


def _coerce(raw: str, annotation: Any, key: str, spec: str) -> Any:
    # annotations may be the types or, under ``from __future__ import annotations``, text
    kind = _SCALARS.get(annotation) or _NAMED.get(str(annotation))
    if kind is None:
        low = raw.lower()
        if low in ("true", "false"):
            return low == "true"
        for cast in (int, float):
            with contextlib.suppress(ValueError):
                return cast(raw)
        return raw
    if kind is bool:
        if raw.lower() in ("true", "yes", "1", "on", "false", "no", "0", "off"):
            return raw.lower() in ("true", "yes", "1", "on")
        raise AgentSpecError(f"agent spec {spec!r}: {key} must be true or false (got {raw!r})")
    try:
        return kind(raw)
    except ValueError:
        raise AgentSpecError(
            f"agent spec {spec!r}: {key} must be {kind.__name__} (got {raw!r})"
        ) from None


def _arguments(
    factory: Callable[..., Any], raw: dict[str, str], game: Game, seed: int, spec: str
) -> dict[str, Any]:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature: pass the params only
        return dict(raw)
    params = signature.parameters
    open_kwargs = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in params and not open_kwargs:
            names = [n for n in params if n not in ("self", "game")] or ["none"]
            raise AgentSpecError(
                f"agent spec {spec!r}: {factory.__name__} has no parameter {key!r};"
                f" its parameters: {', '.join(names)}"
            )
        annotation = params[key].annotation if key in params else inspect.Parameter.empty
        kwargs[key] = _coerce(value, annotation, key, spec)
    if "game" in params or open_kwargs:
        kwargs.setdefault("game", game)
    if "seed" in params:
        kwargs.setdefault("seed", seed)
    return kwargs


class _ActAgent(Agent):
    """Any object with ``act(state)`` as an :class:`Agent`."""

    def __init__(self, inner: Any, seed: int) -> None:
        super().__init__(seed)
        self.inner = inner

    def act(self, state: State) -> Action:
        return int(self.inner.act(state))

    def reset(self) -> None:
        super().reset()
        if callable(getattr(self.inner, "reset", None)):
            self.inner.reset()


def make_code_agent(spec: str, game: Game, seed: int = 0, *, allowed: Allowed = False) -> Agent:
    """The agent a ``py:`` spec makes for ``game``; every mistake is an AgentSpecError."""
    spec = spec.strip()
    module_name, dotted, raw = parse_code_spec(spec)
    target = f"{module_name}:{dotted}"
    if not _permitted(target, allowed):
        where = "none are" if allowed is False else f"only {', '.join(sorted(allowed))} are"  # type: ignore[arg-type]
        raise AgentSpecError(
            f"agent spec {spec!r}: agents from code are not allowed here ({where} allowed)"
        )
    factory = _resolve(_load_module(module_name, spec), dotted, spec)
    kwargs = _arguments(factory, raw, game, seed, spec)
    try:
        made = factory(**kwargs)
    except (TypeError, ValueError) as err:
        raise AgentSpecError(
            f"agent spec {spec!r}: {dotted} refused its arguments: {err}"
        ) from None
    if isinstance(made, Agent):
        agent: Agent = made
    elif callable(getattr(made, "act", None)):
        agent = _ActAgent(made, seed)
    else:
        raise AgentSpecError(
            f"agent spec {spec!r}: {dotted} returned {type(made).__name__}, not an agent"
            " (an Agent, or an object with act(state) -> action)"
        )
    agent.name = spec
    return agent

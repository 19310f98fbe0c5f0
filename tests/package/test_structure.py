"""The package's shape: imports run one way (no cycle, late imports included), the shared core sits
below every algorithm, validators live in one module, no module grows past ~400 lines."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

import perceptron

PACKAGE_DIR = Path(perceptron.__file__).parent
MAX_LINES = 400


def module_name(path: Path, root: Path, package: str) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((package, *parts))


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports, found anywhere in its code
    (module level, inside functions and ``if`` blocks alike): ``import a.b``, ``from a import b``
    and relative imports, resolved to the module files that exist. (The parent package, which
    Python initialises before any of its submodules, is an edge only when a name is taken from it.)"""
    paths = {module_name(p, root, package): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                # `from pkg import sub` needs the submodule pkg.sub when there is one; any other
                # name is looked up in pkg itself, which must then have run to its end.
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.add(sub if sub in paths else source)
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        return list(error.args[1])
    return None


def test_the_package_has_no_import_cycle_late_imports_included():
    graph = import_graph(PACKAGE_DIR, "perceptron")
    # The graph sees every module and the late imports: train loads the compiled pass on first use.
    modules = {f"perceptron.{p.stem}" for p in PACKAGE_DIR.glob("*.py")} - {"perceptron.__init__"}
    assert set(graph) == modules | {"perceptron"}
    assert "perceptron.fast_training" in graph["perceptron.training"]
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph))}"


def test_the_cycle_finder_sees_a_cycle_closed_by_a_late_import(tmp_path):
    # The shape the package had before: training imports fast_training inside a function,
    # fast_training imports training at the top.
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .training import train\n")
    (pkg / "training.py").write_text("def train():\n    from .fast import loop\n    return loop()\n")
    (pkg / "fast.py").write_text("from .training import helper\n")
    graph = import_graph(pkg, "pkg")
    assert graph["pkg.training"] == {"pkg.fast"} and graph["pkg.fast"] == {"pkg.training"}
    assert set(find_cycle(graph)) == {"pkg.training", "pkg.fast"}
    # Taking a name from the package inside one of its modules is a cycle through __init__.
    (pkg / "fast.py").write_text("def loop():\n    from . import train\n")
    assert set(find_cycle(import_graph(pkg, "pkg"))) == {"pkg", "pkg.training", "pkg.fast"}
    (pkg / "fast.py").write_text("def loop():\n    return 0\n")
    assert find_cycle(import_graph(pkg, "pkg")) is None


def test_the_core_sits_below_every_algorithm():
    graph = import_graph(PACKAGE_DIR, "perceptron")
    assert graph["perceptron._validation"] == set()
    assert graph["perceptron._core"] == {"perceptron._validation"}
    # Only train hands over to the compiled pass; no algorithm reaches into training's helpers.
    users_of_training = {name for name, deps in graph.items() if "perceptron.training" in deps}
    # The estimator's one-vs-all loop runs train (its trusted form) once per class.
    assert users_of_training <= {"perceptron", "perceptron.nonseparable", "perceptron._one_vs_all"}
    users_of_the_compiled_pass = {name for name, deps in graph.items() if "perceptron.fast_training" in deps}
    assert users_of_the_compiled_pass == {"perceptron.training"}
    for algorithm in ("training", "fast_training", "pocket", "averaged", "kernel", "sgd", "proof", "multiclass", "network"):
        assert "perceptron._core" in graph[f"perceptron.{algorithm}"], algorithm


@pytest.mark.parametrize("path", sorted(PACKAGE_DIR.glob("*.py")), ids=lambda p: p.name)
def test_no_module_is_over_400_lines(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES


def test_argument_checks_are_defined_only_in_the_validation_module():
    stray = []
    for path in PACKAGE_DIR.glob("*.py"):
        if path.name == "_validation.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.lstrip("_").startswith("check_"):
                stray.append(f"{path.name}:{node.lineno} {node.name}")
    assert stray == []


@pytest.mark.parametrize(
    ("module", "name"),
    [("training", n) for n in ("bias_scale", "visiting_order", "sequential_dot", "count_errors", "diverged",
                               "overflow_raises", "prepare_run")]
    + [("plotting", "plot_proof_race"), ("plotting", "plot_proof_inequalities")],
)
def test_names_that_moved_before_the_first_release_are_gone_from_their_old_module(module, name):
    # The shared helpers live in perceptron._core (count_errors is public as perceptron.count_errors),
    # the proof's figures in perceptron.proof_plots; 0.1.0 keeps no deprecated aliases.
    import importlib

    old = importlib.import_module(f"perceptron.{module}")
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(old, name)
    assert not hasattr(old, "__getattr__"), f"perceptron.{module} resolves names lazily again"
    new = "perceptron.proof_plots" if module == "plotting" else "perceptron._core"
    assert callable(getattr(importlib.import_module(new), name))


RESULT_TYPES = ("TrainResult", "Update", "SGDResult", "Hyperplane", "MaxMargin", "BestLine", "Cycle",
                "ProofQuantities", "MulticlassResult", "MulticlassUpdate", "StructuredResult",
                "TwoLayerNetwork", "NetworkRun",
                "HingeBound", "AdversaryRun", "OnlinePass")


@pytest.mark.parametrize("name", RESULT_TYPES)
def test_every_result_type_is_a_frozen_dataclass_of_the_results_module(name):
    # Defined in perceptron.results (the binary perceptron's) or perceptron._results_beyond (the rest, so
    # that neither module passes the line limit); every one is importable from perceptron.results.
    import dataclasses

    import perceptron.results

    cls = getattr(perceptron, name)
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    assert cls.__module__ in ("perceptron.results", "perceptron._results_beyond") and name in perceptron.__all__
    assert getattr(perceptron.results, name) is cls and name in perceptron.results.__all__


def test_line_results_unpack_like_the_tuples_they_replace_and_predict():
    X, y = [[2.0, 0.0], [0.0, 0.0], [3.0, 1.0]], [1, -1, 1]
    w, b = line = perceptron.prototype(X, y)
    assert isinstance(line, perceptron.Hyperplane) and (w.tolist(), b) == (line.w.tolist(), line.b)
    w, b, gamma = best = perceptron.max_margin(X, y)
    assert gamma == best.gamma and best.predict(X).tolist() == y
    *_, errors = perceptron.fewest_errors_line(X, y)
    assert errors == 0

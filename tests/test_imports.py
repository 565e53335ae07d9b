"""Import rules of the package (issue 16, item 1): no cycle, nothing imports upward, nothing
imports the validation lab.

The graph is built with ``ast`` from every module under src/tetherdyn (nothing is imported
to build it). An edge A -> B is any ``import`` / ``from ... import`` of B in A, at module
level or inside a function, with two precisions:

- imports under ``if TYPE_CHECKING:`` are not edges (they never run: type hints only);
- ``from P import name`` is an edge to the module ``P.name`` when that module exists, else
  to ``P`` itself (so ``from . import __version__`` is an edge to the package face,
  ``tetherdyn/__init__.py``); importing ``P.M`` is not also counted as importing ``P``;
- the formulation registry (``REGISTRY`` in models/__init__.py, ``"module:class"``
  strings imported lazily by importlib) counts as edges from ``tetherdyn.models`` to each
  registered module.

**Upward**: every module belongs to one layer of :data:`LAYERS` (lowest first). A module
may import modules of its own layer or of lower layers; importing a module of a higher
layer is an upward import and fails the test. A module in no layer fails too (a new module
must be placed). Case checking reads the formulations' declarations (models/supports.py),
so ``case`` sits above the formulations, which take a Case by duck typing (their
``Case`` imports are type hints only).

**Cycle**: any strongly connected set of two or more modules in the graph (or a module that
imports itself) fails, whatever the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "tetherdyn"
SRC = Path(__file__).resolve().parents[1] / "src" / PACKAGE

#: layers, lowest first; a name ending in ".*" covers every module below that package
LAYERS: list[tuple[str, ...]] = [
    # leaves: compiled helpers, analytic references, path generators, the
    # declaration type of models/supports.py (imports nothing from the package)
    ("tetherdyn._version", "tetherdyn._numba_load", "tetherdyn._jit", "tetherdyn.analytic",
     "tetherdyn.hydro", "tetherdyn.waves", "tetherdyn.sea", "tetherdyn.spline",
     "tetherdyn.boundary", "tetherdyn.paths", "tetherdyn.models.supports",
     "tetherdyn.rigid_body"),
    # what the formulations share: winch kernels, initial shape, case-level estimates
    ("tetherdyn.winch", "tetherdyn.initial", "tetherdyn.estimates", "tetherdyn.catenary_start"),
    # the formulations and their registry
    ("tetherdyn.models.base", "tetherdyn.models.*", "tetherdyn.models"),
    # the case file: schema and checks against the declarations
    # (system_case: a system's lines as single-line cases)
    ("tetherdyn.case", "tetherdyn.system_case"),
    # time integration
    ("tetherdyn.integrate", "tetherdyn.integrate.*"),
    # one run and what is built on runs of one case
    # (plot rebuilds a results file's case to draw its seabed)
    # (start: the one initial state of every driver, statics' equilibrium included)
    ("tetherdyn.results", "tetherdyn.statics", "tetherdyn.start", "tetherdyn.simulate",
     "tetherdyn.steady",
     "tetherdyn.cosim", "tetherdyn.moordyn_input", "tetherdyn.export", "tetherdyn.plot",
     "tetherdyn.system_run", "tetherdyn.system_statics", "tetherdyn.system_plot",
     "tetherdyn.system_cosim"),
    # many runs
    ("tetherdyn.batch",),
    ("tetherdyn.identify", "tetherdyn.optimize"),
    # the command line
    ("tetherdyn.cli",),
    # the package face (tetherdyn/__init__.py)
    ("tetherdyn",),
    # example scripts use the package as a user does
    ("tetherdyn.examples", "tetherdyn.examples.*"),
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement except those under ``if TYPE_CHECKING:``."""
    found: list = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _registry_targets(tree: ast.AST, package: str) -> list[str]:
    """Modules named by a ``REGISTRY = {...: "module:class"}`` assignment."""
    out = []
    for node in ast.walk(tree):
        target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
        if isinstance(target, ast.Name) and target.id == "REGISTRY" and isinstance(
                getattr(node, "value", None), ast.Dict):
            for v in node.value.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    module = v.value.split(":")[0]
                    out.append(module if "." in module else f"{package}.{module}")
    return out


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges inside the package, imports of anything named ``validation``) per module."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    lab: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod
                           for a in node.names]
            for t in targets:
                if t == "validation" or t.startswith("validation."):
                    lab[name].add(t)
                elif t == PACKAGE or t.startswith(PACKAGE + "."):
                    while t not in modules and "." in t:  # an attribute path: its module
                        t = t.rpartition(".")[0]
                    if t in modules:
                        graph[name].add(t)
        if is_pkg:
            graph[name].update(t for t in _registry_targets(tree, name) if t in modules)
    return graph, lab


def _layer(module: str) -> int | None:
    best = None
    for i, layer in enumerate(LAYERS):
        for entry in layer:
            if entry == module or (entry.endswith(".*") and module.startswith(entry[:-1])):
                # an exact name wins over a wildcard of the same package
                if entry == module:
                    return i
                best = i
    return best


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with a cycle (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph[v]:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_the_graph_sees_known_edges():
    """The walker itself: edges that exist must be found (a walker that finds nothing
    would pass every rule)."""
    graph, _ = import_graph()
    assert "tetherdyn.case" in graph["tetherdyn.simulate"]
    assert "tetherdyn.models.base" in graph["tetherdyn.integrate"]  # from ..models.base
    assert "tetherdyn.models.lumped_mass" in graph["tetherdyn.models"]  # the registry
    assert "tetherdyn.winch" in graph["tetherdyn.models.higher_order"]  # from .. import winch
    assert "tetherdyn.case" not in graph["tetherdyn.models.base"]  # TYPE_CHECKING only


def test_every_module_has_a_layer():
    graph, _ = import_graph()
    missing = sorted(m for m in graph if _layer(m) is None)
    assert not missing, f"modules in no layer of LAYERS (place them): {missing}"


def test_no_upward_import():
    graph, _ = import_graph()
    upward = [f"{a} (layer {_layer(a)}) imports {b} (layer {_layer(b)})"
              for a in sorted(graph) for b in sorted(graph[a])
              if _layer(a) is not None and _layer(b) is not None and _layer(b) > _layer(a)]
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_no_import_cycle():
    graph, _ = import_graph()
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_package_never_imports_the_lab():
    _, lab = import_graph()
    bad = {m: sorted(v) for m, v in lab.items() if v}
    assert not bad, f"the package imports the validation lab: {bad}"


def test_rules_catch_a_cycle_and_an_upward_import():
    """The checks fail on a graph that breaks them."""
    g = {"tetherdyn.case": {"tetherdyn.cli"}, "tetherdyn.cli": {"tetherdyn.case"}}
    assert _cycles(g) == [["tetherdyn.case", "tetherdyn.cli"]]
    assert _layer("tetherdyn.cli") > _layer("tetherdyn.case")

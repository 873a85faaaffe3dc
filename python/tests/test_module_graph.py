"""Note [Python modules one way]: the package's modules import each other in
one direction only, imports inside functions and under TYPE_CHECKING
included."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "btforge"
ORDER = ["errors", "_csv", "_options", "_progress", "market", "indicators", "plots", "replay", "_report_page",
         "sweep", "report"]


def imports_of(path: pathlib.Path):
    """(line, module) for every import of a sibling module of the package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.append((node.lineno, node.module.split(".")[0]))
            else:
                found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("btforge."):
            found.append((node.lineno, node.module.split(".")[1]))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, a.name.split(".")[1]) for a in node.names if a.name.startswith("btforge."))
    return found


def test_every_module_is_placed():
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert modules == set(ORDER), f"place these in ORDER and in Note [Python modules one way]: {modules ^ set(ORDER)}"


def test_imports_run_one_way():
    wrong = []
    for name in ORDER:
        for line, target in imports_of(PACKAGE / f"{name}.py"):
            if target == "_core":
                continue  # the extension, below every module
            if target not in ORDER or ORDER.index(target) >= ORDER.index(name):
                wrong.append(f"btforge/{name}.py:{line} imports {target}")
    assert not wrong, "imports against Note [Python modules one way]: " + "; ".join(wrong)


def test_the_check_sees_a_circle(tmp_path):
    # A test that could not fail proves nothing: a module importing a later one is found.
    module = tmp_path / "plots.py"
    module.write_text("def f():\n    from .sweep import SweepResult\n    return SweepResult\n", encoding="utf-8")
    assert imports_of(module) == [(2, "sweep")]

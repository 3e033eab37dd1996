"""Nothing the app reads is unpickled: every torch.load in explorer/ passes weights_only=True, every
numpy load or read_array allow_pickle=False, and no module calls pickle / dill / joblib loaders. Read from the
source (the behaviour is checked by the hostile-file tests; this stops a new call slipping in)."""

import ast
from pathlib import Path

import pytest

SOURCES = sorted((Path(__file__).resolve().parent.parent / "explorer").rglob("*.py"))


def _calls(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            yield (owner.id if isinstance(owner, ast.Name) else ""), node.func.attr, node


def _keyword(node: ast.Call, name: str):
    for kw in node.keywords:
        if kw.arg == name and isinstance(kw.value, ast.Constant):
            return kw.value.value
    return None


def unsafe_loads(paths) -> list[str]:
    bad = []
    for path in paths:
        for owner, attr, node in _calls(path):
            where = f"{path.name}:{node.lineno}"
            if owner == "torch" and attr == "load" and _keyword(node, "weights_only") is not True:
                bad.append(f"{where} torch.load without weights_only=True")
            elif ((owner in ("np", "numpy") and attr == "load") or attr == "read_array") \
                    and _keyword(node, "allow_pickle") is not False:
                bad.append(f"{where} {owner}.{attr} without allow_pickle=False")
            elif owner in ("pickle", "dill", "joblib", "cloudpickle") and attr in ("load", "loads"):
                bad.append(f"{where} {owner}.{attr}")
    return bad


def test_no_loader_in_the_app_can_unpickle():
    assert len(SOURCES) > 100
    assert unsafe_loads(SOURCES) == []


@pytest.mark.parametrize("code", ["torch.load(p)", "torch.load(p, weights_only=False)", "np.load(p)",
                                  "npy.read_array(p)",
                                  "pickle.loads(b)"])
def test_the_scan_finds_an_unsafe_load(tmp_path, code):
    path = tmp_path / "m.py"
    path.write_text(f"def f(p, b):\n    return {code}\n")
    assert len(unsafe_loads([path])) == 1

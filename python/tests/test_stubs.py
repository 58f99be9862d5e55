"""The type stubs (hedra/_hedra.pyi, hedra/__init__.pyi) against the module they describe: every
public name has a stub, every function and method of the C extension has a text signature that
inspect.signature parses, and the stub's parameters (names, kinds, defaults) are the runtime's."""
import ast
import inspect
import os

import hedra
import hedra._hedra as ext

HERE = os.path.dirname(os.path.abspath(hedra.__file__))


def parse(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return ast.parse(f.read())


def top_level(tree):
    """name -> node for the module-level functions (first overload), classes and annotations."""
    names = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.setdefault(node.name, node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                names[alias.asname or alias.name] = alias
    return names


def public_names(module):
    return [n for n in dir(module) if not n.startswith("_") or n == "__version__"]


def stub_params(fn, drop_first):
    """(name, kind, default) of a stub function; default as a Python value or None."""
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out = []
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = "POSITIONAL_ONLY" if i < len(a.posonlyargs) else "POSITIONAL_OR_KEYWORD"
        value = inspect.Parameter.empty if default is None else ast.literal_eval(default)
        out.append((arg.arg, kind, value))
    for arg, default in zip(a.kwonlyargs, a.kw_defaults):
        value = inspect.Parameter.empty if default is None else ast.literal_eval(default)
        out.append((arg.arg, "KEYWORD_ONLY", value))
    return out[1:] if drop_first else out


def runtime_params(obj):
    sig = inspect.signature(obj)  # raises ValueError without a text signature
    return [(p.name, p.kind.name, p.default) for p in sig.parameters.values()]


def test_every_public_name_has_a_stub():
    stubs = top_level(parse("_hedra.pyi"))
    missing = [n for n in public_names(ext) if n not in stubs]
    assert not missing, f"no stub in _hedra.pyi for {missing}"
    package = top_level(parse("__init__.pyi"))
    missing = [n for n in hedra.__all__ if n not in package]
    assert not missing, f"no stub in __init__.pyi for {missing}"
    assert os.path.exists(os.path.join(HERE, "py.typed"))


def test_functions_have_text_signatures_matching_the_stubs():
    stubs = top_level(parse("_hedra.pyi"))
    functions = [n for n in public_names(ext) if inspect.isbuiltin(getattr(ext, n))]
    assert len(functions) >= 9
    assert str(inspect.signature(hedra.collide)).startswith("(a, b, pose_a=None")
    for name in functions:
        assert isinstance(stubs[name], ast.FunctionDef), name
        assert runtime_params(getattr(ext, name)) == stub_params(stubs[name], False), name


def test_methods_have_text_signatures_matching_the_stubs():
    stubs = top_level(parse("_hedra.pyi"))
    checked = 0
    for name in public_names(ext):
        cls = getattr(ext, name)
        if not isinstance(cls, type) or issubclass(cls, BaseException):
            continue
        methods = {n: node for node in stubs[name].body if isinstance(node, ast.FunctionDef)
                   for n in [node.name]}
        for attr, value in vars(cls).items():
            if attr.startswith("_") or not callable(value) and not isinstance(value, classmethod):
                continue
            if type(value).__name__ not in ("method_descriptor", "classmethod_descriptor"):
                continue
            assert attr in methods, f"{name}.{attr} has no stub"
            bound = getattr(cls, attr)
            params = runtime_params(bound)
            if type(value).__name__ == "method_descriptor":
                params = params[1:]  # self, unbound
            assert params == stub_params(methods[attr], True), f"{name}.{attr}"
            checked += 1
    assert checked >= 10


def test_attributes_and_constructors_have_stubs():
    stubs = top_level(parse("_hedra.pyi"))
    for name in public_names(ext):
        cls = getattr(ext, name)
        if not isinstance(cls, type) or issubclass(cls, BaseException):
            continue
        declared = set()
        for node in stubs[name].body:
            if isinstance(node, ast.AnnAssign):
                declared.add(node.target.id)
            elif isinstance(node, ast.FunctionDef):
                declared.add(node.name)
        for attr, value in vars(cls).items():
            kind = type(value).__name__
            if not attr.startswith("_") and kind in ("member_descriptor", "getset_descriptor"):
                assert attr in declared, f"{name}.{attr} has no stub"
    for name in ("Polytope", "Scene"):
        init = next(n for n in stubs[name].body
                    if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        assert runtime_params(getattr(ext, name)) == stub_params(init, True), name


def test_exception_bases_match():
    stubs = top_level(parse("_hedra.pyi"))
    for name in ("HedraError", "InvalidInputError", "ParseError", "FileError"):
        bases = [ast.unparse(b) for b in stubs[name].bases]
        runtime = [b.__name__ for b in getattr(ext, name).__bases__]
        assert bases == runtime, name

"""A seeded generator of random programs over sprout's public API (the model is in ``program.py``).

Programs are typed while they are generated, so eager almost always runs them: tensors of a few related
shapes, Python ints/floats, containers of tensors; variables assigned in only one branch, or first
assigned inside a loop, are not used afterwards; loops are bounded by counters incremented first in
the body. Values stay bounded (tanh/sin/sigmoid, division by ``abs(.) + 1``)."""
from __future__ import annotations

import random
import numpy as np

from .gen_stmts import FLOATS, Scope, Statements
from .program import Arg, Expr, Program, Stmt, slots

# Feature families; each program uses a random subset (``features`` restricts it).
FEATURES = ("tensor_if", "py_if", "tensor_while", "py_while", "for", "break", "helpers", "closures",
            "containers", "assign", "dropout", "alias", "mutable", "cell", "grad_inside", "reshape",
            "matmul", "early_return", "fallback")
# Features that are off unless asked for: constructs issue 9 expects to run as host code (LAX fallback).
OPT_IN = frozenset({"fallback"})
# Named only with --features (not in FEATURES: the programs of existing seeds stay as they were): in-place writes
# into local tensors (``v[i] = e``, ``v.add_(e)``, ``v[1:].mul_(e)`` ...).
EXTRA = ("inplace",)
SHAPES = ((2, 3), (3,), (2, 2), (4,), (3, 2))
UNARY = ("ops.tanh({0})", "ops.sin({0})", "ops.cos({0})", "ops.sigmoid({0})", "ops.relu({0})", "ops.abs({0})",
         "(-{0})", "({0} * 0.5)", "ops.exp(ops.tanh({0}))", "ops.log(ops.abs({0}) + 1)", "ops.sqrt(ops.abs({0}) + 0.5)",
         "ops.square({0})", "{0}.abs()", "ops.clamp({0}, -1.0, 1.0)", "ops.softplus({0})", "ops.neg({0})")
BINARY = ("({0} + {1})", "({0} - {1})", "({0} * {1})", "({0} / (ops.abs({1}) + 1))", "ops.maximum({0}, {1})",
          "ops.minimum({0}, {1})", "ops.add({0}, {1})", "ops.mul({0}, {1})", "ops.sub({0}, {1})")
REDUCE0 = ("{0}.sum()", "{0}.mean()", "ops.amax({0})", "ops.amin({0})", "ops.sum({0})", "ops.mean({0})")


class Gen(Statements):
    """``Gen(seed).program()``: one random program."""

    def __init__(self, seed: int, features: frozenset | None = None, size: int = 6):
        self.seed = seed
        self.r = random.Random(seed)
        pool = [f for f in FEATURES if f not in OPT_IN or (features and f in OPT_IN)]
        if features is not None:
            pool = [f for f in pool if f in features]
        # each program uses a random subset: rare interactions get tried, failures stay attributable
        self.on = {f for f in pool if self.r.random() < 0.5} if features is None else set(pool)
        self.on.update(f for f in EXTRA if features and f in features)
        self.used: set = set()
        self.owned: set = set()  # tensor names the in-place statements made (gen_stmts.s_inplace)
        self.size = size
        self.S = self.r.choice(SHAPES)
        self.universe = self._universe(self.S)
        self.counter = 0
        self.helpers: list = []      # Stmt defs
        self.helper_sigs: list = []  # (name, n_tensor_params, has_default)
        self.globals_: list = []
        self.weights: list = []
        self.np_rng = np.random.default_rng(seed)

    # ---- small utilities --------------------------------------------------------------------------
    def feat(self, f: str, p: float = 1.0) -> bool:
        ok = f in self.on and self.r.random() < p
        if ok:
            self.used.add(f)
        return ok

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    @staticmethod
    def _universe(S: tuple) -> list:
        u = {S, (), S[-1:]}
        if len(S) == 2:
            a, b = S
            u |= {(a * b,), (b, a), (a, a), (b, b), (a,)}
        return sorted(u, key=lambda s: (len(s), s))

    def pick_shape(self) -> tuple:
        return self.S if self.r.random() < 0.6 else self.r.choice(self.universe)

    def array(self, shape: tuple) -> list:
        return np.round(self.np_rng.standard_normal(shape), 2).tolist()

    def lit(self) -> Expr:
        return Expr(self.r.choice(FLOATS), [], "f")

    # ---- expressions ------------------------------------------------------------------------------
    def leaf(self, sc: Scope, shape: tuple) -> Expr:
        """A variable of ``shape`` if one exists, else one derived from a variable of another shape."""
        cands = [Expr(n, [], shape) for n, s in sc.tensors.items() if s == shape]
        cands += [Expr(n, [], shape) for n, s in sc.params.items() if s == shape]
        cands += [Expr(f"{n}[{self.r.choice([0, 1, -1])}]", [], shape) for n, s in sc.lists.items() if s == shape]
        cands += [Expr(f"{n}[{self.r.randrange(k)}]", [], shape) for n, (s, k) in sc.tuples.items() if s == shape]
        cands += [Expr(f"{n}[{self.r.choice(ks)!r}]", [], shape) for n, (s, ks) in sc.dicts.items() if s == shape]
        if cands:
            return self.r.choice(cands)
        src_name, src = self.r.choice(sorted(sc.tensors.items()) or sorted(sc.params.items()))
        v = Expr(src_name, [], src)
        return self.derive(v, src, shape)

    def derive(self, v: Expr, src: tuple, shape: tuple) -> Expr:
        if shape == src:
            return v
        if shape == ():
            return Expr(self.r.choice(REDUCE0), [v], ())
        if int(np.prod(src)) == int(np.prod(shape)):
            return Expr("{0}.reshape(" + repr(shape) + ")", [v], shape)
        return Expr("ops.broadcast_to({0}, " + repr(shape) + ")", [Expr("{0}.mean()", [v], ())], shape)

    def scalar_operand(self, sc: Scope) -> Expr:
        """A Python number (literal, int/float variable) or a number a graph may carry as a tensor."""
        pool = [self.lit()]
        pool += [Expr(n, [], "i") for n in sorted(sc.ints)] + [Expr(n, [], "f") for n in sorted(sc.floats)]
        pool += [Expr(n, [], "n") for n in sorted(sc.nums)]
        return self.r.choice(pool)

    def texpr(self, sc: Scope, shape: tuple, d: int) -> Expr:
        """A float tensor expression of ``shape``."""
        if d <= 0 or self.r.random() < 0.1:
            return self.leaf(sc, shape)
        r = self.r
        opts = [("unary", 3), ("binary", 4), ("scalar", 2), ("reduce", 1.5), ("where", 0.7), ("index", 0.7),
                ("stack", 0.4), ("ifexp", 0.5)]
        if shape:
            opts.append(("dropout", 0.6 if "dropout" in self.on else 0))
        if self.reshapes(shape):
            opts.append(("reshape", 1.2 if "reshape" in self.on else 0.2))
        if len(shape) == 2 and "matmul" in self.on:
            opts.append(("matmul", 1.2))
        if self.helpers_for(shape):
            opts.append(("call", 1.5))
            if "grad_inside" in self.on:
                opts.append(("grad", 1.0))
        if any(s == shape for _, s in sc.fns.values()):
            opts.append(("closure", 1.2))
        kind = r.choices([k for k, _ in opts], [w for _, w in opts])[0]
        if kind == "unary":
            return Expr(r.choice(UNARY), [self.texpr(sc, shape, d - 1)], shape)
        if kind == "binary":
            other = shape if r.random() < 0.6 else r.choice([(), shape[-1:] if shape else ()])
            a, b = self.texpr(sc, shape, d - 1), self.texpr(sc, other, d - 1)
            if r.random() < 0.3:
                a, b = b, a
                if other != shape:  # keep the result's shape: the broadcast operand stays second in ops.*
                    return Expr(r.choice(BINARY[:4]), [a, b], shape)
            return Expr(r.choice(BINARY), [a, b], shape)
        if kind == "scalar":
            s = self.scalar_operand(sc)
            fmt = r.choice(("({0} * {1})", "({0} + {1})", "({1} * {0})", "({0} - {1})", "({0} / ({1} + 4))"))
            if s.ty in ("i", "n") and fmt == "({0} / ({1} + 4))":
                fmt = "({0} * {1})"
            return Expr(fmt, [self.texpr(sc, shape, d - 1), s], shape)
        if kind == "reduce":
            return self.reduce_to(sc, shape, d)
        if kind == "where":
            c = self.texpr(sc, shape, d - 1)
            return Expr("ops.where({0} > 0, {1}, {2})", [c, self.texpr(sc, shape, d - 1), self.texpr(sc, shape, d - 1)],
                        shape)
        if kind == "index":
            src = [s for s in self.universe if len(s) == len(shape) + 1 and s[1:] == shape]
            if not src:
                return Expr(r.choice(UNARY), [self.texpr(sc, shape, d - 1)], shape)
            s = r.choice(src)
            return Expr("{0}[" + str(r.choice([0, -1, s[0] - 1])) + "]", [self.texpr(sc, s, d - 1)], shape)
        if kind == "stack":
            red = r.choice(("ops.stack([{0}, {1}]).sum(0)", "ops.stack(({0}, {1})).mean(0)", "ops.addn([{0}, {1}])"))
            return Expr(red, [self.texpr(sc, shape, d - 1), self.texpr(sc, shape, d - 1)], shape)
        if kind == "ifexp":
            return Expr("({1} if {0} else {2})", [self.cond(sc, d - 1), self.texpr(sc, shape, d - 1),
                                                  self.texpr(sc, shape, d - 1)], shape)
        if kind == "dropout":
            self.used.add("dropout")
            return Expr("ops.dropout({0}, p=" + r.choice(("0.3", "0.5", "0.2")) + ")", [self.texpr(sc, shape, d - 1)],
                        shape)
        if kind == "reshape":
            self.used.add("reshape")
            s2 = r.choice(self.reshapes(shape))
            fmt = r.choice(("{0}.reshape(" + repr(shape) + ")", "ops.reshape({0}, " + repr(shape) + ")"))
            if len(shape) == 1 and r.random() < 0.5:
                fmt = "{0}.reshape(-1)" if len(s2) > 1 else fmt
            if len(shape) == 2 and len(s2) == 2 and s2 == shape[::-1] and r.random() < 0.5:
                fmt = r.choice(("{0}.T", "ops.transpose({0}, (1, 0))"))
            return Expr(fmt, [self.texpr(sc, s2, d - 1)], shape)
        if kind == "matmul":
            self.used.add("matmul")
            a, b = shape
            dims = {x for s in self.universe for x in s}
            ks = [k for k in dims if (a, k) in self.universe and (k, b) in self.universe]
            k = r.choice(ks) if ks else a
            if (a, k) not in self.universe or (k, b) not in self.universe:
                return Expr(r.choice(UNARY), [self.texpr(sc, shape, d - 1)], shape)
            fmt = r.choice(("ops.matmul({0}, {1})", "({0} @ {1})"))
            return Expr(fmt, [self.texpr(sc, (a, k), d - 1), self.texpr(sc, (k, b), d - 1)], shape)
        if kind == "call":
            return self.call_helper(sc, shape, d)
        if kind == "grad":
            return self.grad_expr(sc, shape, d)
        if kind == "closure":
            name, (arity, _) = r.choice([(n, v) for n, v in sc.fns.items() if v[1] == shape])
            args = [self.texpr(sc, shape, d - 1) for _ in range(arity)]
            fmt = name + "(" + slots(arity) + ")"
            return Expr(fmt, args, shape)
        raise AssertionError(kind)

    def reshapes(self, shape: tuple) -> list:
        n = int(np.prod(shape)) if shape else 1
        return [s for s in self.universe if s != shape and s and int(np.prod(s)) == n]

    def reduce_to(self, sc: Scope, shape: tuple, d: int) -> Expr:
        r = self.r
        if shape == ():
            src = r.choice([s for s in self.universe if s])
            return Expr(r.choice(REDUCE0), [self.texpr(sc, src, d - 1)], ())
        src = [(s, 0) for s in self.universe if len(s) == len(shape) + 1 and s[1:] == shape]
        src += [(s, 1) for s in self.universe if len(s) == len(shape) + 1 and s[:1] == shape]
        if not src:
            return Expr(r.choice(UNARY), [self.texpr(sc, shape, d - 1)], shape)
        s, ax = r.choice(src)
        fmt = r.choice(("{0}.sum(%d)", "{0}.mean(%d)", "ops.sum({0}, %d)", "ops.amax({0}, %d)")) % ax
        return Expr(fmt, [self.texpr(sc, s, d - 1)], shape)

    def cond(self, sc: Scope, d: int, tensor: bool | None = None) -> Expr:
        """A condition: on a tensor value (``bt``) or on Python values (``bp``)."""
        r = self.r
        py_ok = bool(sc.ints) or r.random() < 0.3
        if tensor is None:
            tensor = not py_ok or r.random() < 0.5
        if not tensor:
            pool = [Expr(f"{n} > {r.randrange(3)}", [], "bp") for n in sorted(sc.ints)]
            pool += [Expr(f"{n} % 2 == {r.randrange(2)}", [], "bp") for n in sorted(sc.ints)]
            pool += [Expr(f"len({n}) > 2", [], "bp") for n in sc.lists]
            pool += [Expr(f"{n} > 0.3", [], "bp") for n in sorted(sc.floats)]
            pool.append(Expr(r.choice(("True", "False")), [], "bp"))
            return r.choice(pool)
        e = self.texpr(sc, (), max(d, 1))
        c = Expr("({0} " + r.choice((">", "<", ">=", "<=")) + " {1})", [e, self.lit()], "bt")
        x = r.random()
        if x < 0.12:
            c = Expr("(not {0})", [c], "bt")
        elif x < 0.24:
            c = Expr("({0} " + r.choice(("and", "or")) + " {1})", [c, self.cond(sc, d - 1)], "bt")
        elif x < 0.3 and sc.nums:
            c = Expr("({0} and " + r.choice(sorted(sc.nums)) + " < 3)", [c], "bt")
        return c

    def call_helper(self, sc: Scope, shape: tuple, d: int) -> Expr:
        name, nt, default, _ = self.r.choice(self.helpers_for(shape))
        args = [self.texpr(sc, shape, d - 1) for _ in range(nt)]
        fmt = name + "(" + slots(nt)
        if default and self.r.random() < 0.5:
            fmt += self.r.choice((", c=0.25", ", 0.75", ", c=2.0"))
        return Expr(fmt + ")", args, shape)

    def helpers_for(self, shape: tuple) -> list:
        return [h for h in self.helper_sigs if h[3] == shape]

    def grad_expr(self, sc: Scope, shape: tuple, d: int) -> Expr:
        """A gradient taken inside the program: ops.grad / value_and_grad / GradOperation of a helper."""
        self.used.add("grad_inside")
        name, nt, _default, _ = self.r.choice(self.helpers_for(shape))
        # ``* 1.0``: one Parameter passed twice is one input for eager MindSpore (gradients add up) but two for
        # graph mode; MindSpore itself differs there, so the programs keep the two arguments distinct
        args = [Expr("({0} * 1.0)", [self.texpr(sc, shape, d - 1)], shape, keep=True) for _ in range(nt)]
        call = "(" + slots(nt) + ")"
        forms = [f"ops.grad({name})" + call, f"ops.value_and_grad({name})" + call + "[1]",
                 f"ops.GradOperation()({name})" + call]
        if nt == 2:
            forms += [f"ops.grad({name}, grad_position=(0, 1))" + call + "[1]",
                      f"ops.GradOperation(get_all=True)({name})" + call + "[1]"]
        return Expr(self.r.choice(forms), args, shape)

    def iexpr(self, sc: Scope) -> Expr:
        r = self.r
        pool = [Expr(str(r.randrange(4)), [], "i")]
        pool += [Expr(f"{n} + {r.randrange(1, 3)}", [], "i") for n in sorted(sc.ints)]
        pool += [Expr(f"len({n})", [], "i") for n in sc.lists]
        return r.choice(pool)

    # ---- whole programs ---------------------------------------------------------------------------
    def helper(self, idx: int) -> None:
        """A module-level helper ``h<idx>(a[, b], c=...)`` returning a tensor of a's shape."""
        r = self.r
        shape = self.S if r.random() < 0.7 else r.choice(self.universe)
        nt = r.choice((1, 2))
        name = f"h{idx}"
        sc = Scope(in_main=False)
        params = ["a", "b"][:nt]
        for p in params:
            sc.tensors[p] = shape
        default = r.random() < 0.6
        if default:
            sc.floats.add("c")
        if not self.cell:  # module-level Parameters are globals the helper may read and assign
            sc.params = dict(self.param_shapes)
        head = "def " + name + "(" + ", ".join(params + (["c=" + r.choice(FLOATS)] if default else [])) + "):"
        st = Stmt("def", head)
        ret = Stmt("return", "return {0}", [self.texpr(sc, shape, 2)], keep=True)
        st.body = self.block(sc, r.randint(0, 3)) + [ret]
        self.helpers.append(st)
        self.helper_sigs.append((name, nt, default, shape))

    def program(self) -> Program:
        r = self.r
        self.args: list = []
        self.param_shapes: dict = {}
        # arguments: 1-3 tensors (mostly the main shape), maybe a Python int, float, mutable int, tuple
        for k in range(r.randint(1, 3)):
            shape = self.S if k == 0 or r.random() < 0.7 else r.choice([s for s in self.universe if s])
            self.args.append(Arg("xyz"[k], "tensor", self.array(shape), self.array(shape)))
        if r.random() < 0.5:
            n = r.randint(1, 3)
            self.args.append(Arg("n", "int", n, n if r.random() < 0.5 else r.randint(1, 3)))
        if r.random() < 0.3:
            self.args.append(Arg("s", "float", 0.5, r.choice((0.5, 1.5))))
        if self.feat("mutable", 0.6):
            self.args.append(Arg("m", "mutable", r.randint(1, 3), r.randint(1, 3)))
        if "containers" in self.on and r.random() < 0.3:
            self.args.append(Arg("tp", "tuple", [self.array(self.S), self.array(self.S)],
                                 [self.array(self.S), self.array(self.S)]))
        cell = self.cell = self.feat("cell", 0.5)
        # Parameters: module globals (functions) or attributes (Cells)
        if "assign" in self.on or r.random() < 0.3:
            for k in range(r.randint(1, 2)):
                shape = self.S if r.random() < 0.7 else r.choice([s for s in self.universe if s])
                if cell:
                    pname = f"self.w{k}"
                else:
                    pname = f"p{k}"
                    self.globals_.append(Stmt("line", f"{pname} = Parameter(Tensor(np.array({self.array(shape)!r}, "
                                                      f"np.float32)), name={pname!r})"))
                self.param_shapes[pname] = shape
                self.weights.append(pname)
        if self.feat("helpers", 0.8) or "grad_inside" in self.on:
            for k in range(r.randint(1, 2)):
                self.helper(k)
        sc = Scope()
        for a in self.args:
            if a.kind == "tensor":
                sc.tensors[a.name] = tuple(np.shape(a.a))
            elif a.kind == "int":
                sc.ints.add(a.name)
            elif a.kind == "float":
                sc.floats.add(a.name)
            elif a.kind == "mutable":
                sc.nums.add(a.name)
            elif a.kind == "tuple":
                sc.tuples[a.name] = (self.S, 2)
        sc.params = dict(self.param_shapes)
        if cell:
            sc.floats.add("self.scale")
        # the return's structure first (early returns reuse it)
        n_out = r.choice((1, 1, 2, 2, 3))
        has_n = any(a.name == "n" for a in self.args)
        self._ret_types = ["i" if has_n and n_out > 1 and r.random() < 0.07 else self.pick_shape()
                           for _ in range(n_out)]
        self._ret_fmt = "return {0}" if n_out == 1 else "return " + slots(n_out)
        body = self.block(sc, r.randint(max(2, self.size - 3), self.size + 2))
        outs: list = []
        for t in self._ret_types:
            x = r.random()
            same = [a for a in self.args if a.kind == "tensor" and tuple(np.shape(a.a)) == t and a.name in sc.tensors]
            if t == "i":
                outs.append(Expr("n", [], "i"))
            elif x < 0.2 and "alias" in self.on and same:  # an output that is an input
                self.used.add("alias")
                outs.append(Expr(r.choice(same).name, [], t))
            elif x < 0.3 and "alias" in self.on and outs and outs[-1].ty == t:
                self.used.add("alias")
                outs.append(outs[-1])  # the same value twice
            else:
                outs.append(self.texpr(sc, t, 2))
        body.append(Stmt("return", self._ret_fmt, outs, keep=True))
        names = ", ".join(a.name for a in self.args)
        if cell:
            main = self.cell_class(names, body)
            entry = "net"
            weights = ["net." + w[5:] for w in self.weights]
        else:
            main = Stmt("def", f"def f({names}):", body=body)
            entry = "f"
            weights = list(self.weights)
        return Program(self.seed, self.globals_, self.helpers, main, self.args, entry, weights,
                       set(self.used))

    def cell_class(self, names: str, body: list) -> Stmt:
        init = Stmt("def", "def __init__(self):", keep=True)
        init.body = [Stmt("line", "super().__init__()", keep=True),
                     Stmt("line", f"self.scale = {self.r.choice(FLOATS)}", keep=True)]
        for w, shape in self.param_shapes.items():
            init.body.append(Stmt("line", f"{w} = Parameter(Tensor(np.array({self.array(shape)!r}, np.float32)), "
                                          f"name={w[5:]!r})", keep=True))
        construct = Stmt("def", f"def construct(self, {names}):", body=body, keep=True)
        return Stmt("class", "class Net(nn.Cell):", body=[init, construct], keep=True)


def generate(seed: int, features: frozenset | None = None, size: int = 6) -> Program:
    return Gen(seed, features, size).program()

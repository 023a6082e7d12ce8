"""The statement half of the program generator (``gen.Gen`` mixes it in): assignments, branches, loops,
containers, Parameter updates, closures, early returns and host-only code, each keeping the program valid
for eager execution (see ``gen``'s docstring for the rules)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .program import Expr, Stmt, slots

FLOATS = ("0.5", "1.5", "2.0", "0.25", "-1.0", "3.0", "0.1", "-0.5")
BINARY3 = ("({0} + {1})", "({0} - {1})", "({0} * {1})")


@dataclass
class Scope:
    """What the code being generated can use and assign."""

    tensors: dict = field(default_factory=dict)   # name -> shape
    ints: set = field(default_factory=set)        # Python ints (usable as Python values)
    nums: set = field(default_factory=set)        # ints a graph may carry as tensors: arithmetic only
    floats: set = field(default_factory=set)
    lists: dict = field(default_factory=dict)     # name -> shape (length >= 2, may grow)
    tuples: dict = field(default_factory=dict)    # name -> (shape, length)
    dicts: dict = field(default_factory=dict)     # name -> (shape, keys)
    fns: dict = field(default_factory=dict)       # closures/lambdas: name -> (arity, shape)
    params: dict = field(default_factory=dict)    # Parameter expressions -> shape
    frozen: set = field(default_factory=set)      # names not to assign here
    loop: bool = False
    tctl: int = 0                                 # depth of tensor control flow
    in_main: bool = True
    depth: int = 0                                # statement nesting

    def child(self, **kw) -> Scope:
        s = Scope(dict(self.tensors), set(self.ints), set(self.nums), set(self.floats), dict(self.lists),
                  dict(self.tuples), dict(self.dicts), dict(self.fns), dict(self.params), set(self.frozen),
                  self.loop, self.tctl, self.in_main, self.depth + 1)
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    def locked(self) -> Scope:
        """Inside tensor control flow: outer Python ints and containers keep their values."""
        return self.child(tctl=self.tctl + 1, frozen=self.frozen | self.ints | set(self.lists) | set(self.dicts)
                          | set(self.tuples) | set(self.fns) | set(self.nums))


class Statements:
    """Statement generators; ``Gen`` provides ``r``, ``on``, ``used``, the expression methods."""

    # ---- statements -------------------------------------------------------------------------------
    def block(self, sc: Scope, n: int) -> list:
        out: list = []
        for _ in range(n):
            out += self.stmt(sc)
        return out

    def stmt(self, sc: Scope) -> list:
        r = self.r
        deep = sc.depth >= 3
        opts = [("assign", 5), ("reassign", 4 if sc.tensors else 0), ("aug", 1.5 if sc.tensors else 0)]
        if not sc.tctl:
            opts.append(("int", 0.6))
        if not deep:
            opts += [("if_t", 1.5 if "tensor_if" in self.on else 0), ("if_p", 1 if "py_if" in self.on else 0),
                     ("while_t", 1 if "tensor_while" in self.on else 0),
                     ("while_p", 0.7 if "py_while" in self.on else 0), ("for", 1.5 if "for" in self.on else 0)]
        if sc.loop and "break" in self.on:
            opts.append(("break", 0.8))
        if "containers" in self.on and not sc.tctl:
            opts.append(("container", 1.5))
        if "assign" in self.on and (sc.params or sc.in_main):
            opts.append(("assign_param", 1.0))
        if "closures" in self.on and not sc.tctl and sc.depth <= 1:
            opts.append(("closure", 0.8))
        if "early_return" in self.on and sc.in_main and not sc.loop and sc.depth >= 1:
            opts.append(("return", 0.4))
        if "fallback" in self.on:
            opts.append(("fallback", 0.7))
        if "inplace" in self.on:
            opts.append(("inplace", 2.0))
        kind = r.choices([k for k, _ in opts], [w for _, w in opts])[0]
        return getattr(self, "s_" + kind)(sc)

    def d(self) -> int:
        return self.r.choice((2, 2, 3))

    def s_assign(self, sc: Scope) -> list:
        shape = self.pick_shape()
        name = self.name("v")
        st = Stmt("line", name + " = {0}", [self.texpr(sc, shape, self.d())])
        sc.tensors[name] = shape
        return [st]

    def assignable(self, sc: Scope) -> list:
        return [(n, s) for n, s in sorted(sc.tensors.items()) if n not in sc.frozen]

    def s_reassign(self, sc: Scope) -> list:
        cands = self.assignable(sc)
        if not cands:
            return self.s_assign(sc)
        name, shape = self.r.choice(cands)
        self.owned.discard(name)  # (may now alias an argument)
        e = self.texpr(sc, shape, self.d())
        if self.r.random() < 0.4:
            e = Expr(self.r.choice(BINARY3), [Expr(name, [], shape), e], shape)
        if sc.loop and self.r.random() < 0.5:  # keep values bounded when a loop repeats this
            e = Expr(self.r.choice(("ops.tanh({0})", "ops.sin({0})", "({0} * 0.5)")), [e], shape)
        return [Stmt("line", name + " = {0}", [e])]

    def s_aug(self, sc: Scope) -> list:
        cands = self.assignable(sc)
        if not cands:
            return self.s_assign(sc)
        name, shape = self.r.choice(cands)
        op = self.r.choice(("+=", "-=", "*="))
        e = self.texpr(sc, shape if self.r.random() < 0.7 else (), self.d() - 1)
        if op == "*=":
            e = Expr("ops.tanh({0})", [e], e.ty)
        return [Stmt("line", f"{name} {op} {{0}}", [e])]

    def s_inplace(self, sc: Scope) -> list:
        """An in-place write into a tensor this program made (``self.owned``: a write into an argument is refused
        under grad, and AST capture leaves an argument's ``x[i] = v`` unwritten, as MindSpore's graph mode)."""
        r = self.r
        self.used.add("inplace")
        cands = [(n, s) for n, s in self.assignable(sc) if n in self.owned and s]
        out = []
        if not cands or r.random() < 0.3:
            shape = self.pick_shape() or self.S
            name = self.name("v")
            out.append(Stmt("line", name + " = ({0}) * 1.0", [self.texpr(sc, shape, self.d())]))
            sc.tensors[name] = shape
            self.owned.add(name)
            cands = [(name, shape)]
        name, shape = r.choice(cands)
        kind = r.choice(("add_", "sub_", "mul_", "clamp_", "copy_", "setitem", "setitem_slice", "view_mul_"))
        if kind == "clamp_":
            return out + [Stmt("line", f"{name}.clamp_(-1.0, 1.0)", [])]
        if kind in ("setitem", "setitem_slice", "view_mul_"):
            i = r.randrange(-shape[0], shape[0])
            index = f"{i}" if kind == "setitem" else f"{i}:"
            vshape = shape[1:] if kind == "setitem" else ()
            e = self.texpr(sc, vshape if r.random() < 0.7 else (), self.d() - 1)
            if kind == "view_mul_":
                return out + [Stmt("line", f"{name}[{index}].mul_({{0}})", [Expr("ops.tanh({0})", [e], e.ty)])]
            return out + [Stmt("line", f"{name}[{index}] = {{0}}", [e])]
        e = self.texpr(sc, shape if r.random() < 0.7 else (), self.d() - 1)
        if kind == "mul_":
            e = Expr("ops.tanh({0})", [e], e.ty)
        return out + [Stmt("line", f"{name}.{kind}({{0}})", [e])]

    def s_int(self, sc: Scope) -> list:
        name = self.name("k")
        st = Stmt("line", name + " = {0}", [self.iexpr(sc)])
        sc.ints.add(name)
        return [st]

    def _if(self, sc: Scope, tensor: bool, allow_elif: bool = True) -> Stmt:
        c = self.cond(sc, 1, tensor)
        inner = sc.locked() if tensor else sc.child()
        then_sc = inner.child()
        body = self.block(then_sc, self.r.randint(1, 3))
        orelse: list = []
        else_sc = None
        x = self.r.random()
        st = Stmt("if", "if {0}:", [c], body)
        if allow_elif and x < 0.25:
            else_sc = inner.child()
            sub = self._if(else_sc, tensor if self.r.random() < 0.7 else not tensor, allow_elif=False)
            sub.elif_ = True
            orelse = [sub]
            else_sc = None  # an elif chain defines nothing new for sure
        elif x < 0.7:
            else_sc = inner.child()
            orelse = self.block(else_sc, self.r.randint(1, 2))
        st.orelse = orelse
        if else_sc is not None:  # names assigned by both branches with one type exist afterwards
            for n, s in then_sc.tensors.items():
                if n not in sc.tensors and else_sc.tensors.get(n) == s:
                    sc.tensors[n] = s
        return st

    def s_if_t(self, sc: Scope) -> list:
        self.used.add("tensor_if")
        return [self._if(sc, True)]

    def s_if_p(self, sc: Scope) -> list:
        self.used.add("py_if")
        return [self._if(sc, False)]

    def s_while_t(self, sc: Scope) -> list:
        """A tensor while, bounded by a counter (a Python int, or a tensor) incremented first in the body."""
        self.used.add("tensor_while")
        r = self.r
        i = self.name("i")
        bound = r.randint(1, 4)
        inner = sc.locked()
        if r.random() < 0.6:  # condition mixes a tensor and a Python counter
            init = Stmt("line", f"{i} = 0")
            inner.nums.add(i)
            body_sc = inner.child(loop=True)
            c = self.cond(body_sc, 1, True)
            head = Stmt("while", "while {0} and " + f"{i} < {bound}:", [c])
            sc.nums.add(i)
        else:
            v = r.choice(sorted(sc.tensors)) if sc.tensors else None
            src = Expr(v, [], sc.tensors[v]) if v else self.leaf(sc, self.S)
            init = Stmt("line", i + " = {0}", [Expr("({0}.sum() * 0)", [src], ())])
            body_sc = inner.child(loop=True)
            c = self.cond(body_sc, 1, True) if r.random() < 0.5 else None
            fmt = (f"while {i} < {bound}:" if c is None else "while {0} and " + f"{i} < {bound}:")
            head = Stmt("while", fmt, [c] if c is not None else [])
            sc.tensors[i] = ()
        inc = Stmt("line", f"{i} = {i} + 1")
        body_sc.frozen = body_sc.frozen | {i}
        head.body = [inc] + self.block(body_sc, r.randint(1, 3))
        return [init, head]

    def s_while_p(self, sc: Scope) -> list:
        self.used.add("py_while")
        j = self.name("j")
        bound = self.r.choice([str(self.r.randint(1, 3))] + sorted(n for n in sc.ints if not n.startswith("j")))
        body_sc = sc.child(loop=True)
        body_sc.ints.add(j)
        body_sc.frozen = body_sc.frozen | {j}
        head = Stmt("while", f"while {j} < {bound}:")
        head.body = [Stmt("line", f"{j} += 1")] + self.block(body_sc, self.r.randint(1, 3))
        sc.ints.add(j)
        return [Stmt("line", f"{j} = 0"), head]

    def s_for(self, sc: Scope) -> list:
        self.used.add("for")
        r = self.r
        body_sc = sc.child(loop=True)
        forms = ["range"]
        if sc.lists:
            forms += ["list", "enumerate"]
            if len(sc.lists) >= 2 or sc.tuples:
                forms.append("zip")
        if sc.dicts:
            forms.append("dict")
        if sc.tuples:
            forms.append("tuple")
        if any(len(s) == 2 for s in sc.tensors.values()):
            forms.append("rows")
        form = r.choice(forms)
        i = self.name("i")
        if form == "range":
            bound = r.choice([str(r.randint(1, 3))] + sorted(n for n in sc.ints))
            head = Stmt("for", f"for {i} in range({bound}):")
            body_sc.ints.add(i)
        elif form in ("list", "enumerate"):
            name = r.choice(sorted(sc.lists))
            v = self.name("e")
            body_sc.tensors[v] = sc.lists[name]
            if form == "list":
                head = Stmt("for", f"for {v} in {name}:")
            else:
                head = Stmt("for", f"for {i}, {v} in enumerate({name}):")
                body_sc.ints.add(i)
        elif form == "zip":
            seqs = sorted(sc.lists) + sorted(sc.tuples)
            a, b = r.sample(seqs, 2) if len(seqs) >= 2 else (seqs[0], seqs[0])
            va, vb = self.name("e"), self.name("e")
            body_sc.tensors[va] = sc.lists[a] if a in sc.lists else sc.tuples[a][0]
            body_sc.tensors[vb] = sc.lists[b] if b in sc.lists else sc.tuples[b][0]
            head = Stmt("for", f"for {va}, {vb} in zip({a}, {b}):")
        elif form == "dict":
            name = r.choice(sorted(sc.dicts))
            v = self.name("e")
            body_sc.tensors[v] = sc.dicts[name][0]
            head = Stmt("for", f"for {i}, {v} in {name}.items():")
        elif form == "tuple":
            name = r.choice(sorted(sc.tuples))
            v = self.name("e")
            body_sc.tensors[v] = sc.tuples[name][0]
            head = Stmt("for", f"for {v} in {name}:")
        else:
            name = r.choice(sorted(n for n, s in sc.tensors.items() if len(s) == 2))
            v = self.name("e")
            body_sc.tensors[v] = sc.tensors[name][1:]
            head = Stmt("for", f"for {v} in {name}:")
        body_sc.frozen = body_sc.frozen | {i}
        head.body = self.block(body_sc, r.randint(1, 3))
        return [head]

    def s_break(self, sc: Scope) -> list:
        self.used.add("break")
        word = self.r.choice(("break", "continue"))
        tensor = bool(sc.tctl) or self.r.random() < 0.5
        c = self.cond(sc, 1, tensor)
        if tensor:
            self.used.add("tensor_if")
        return [Stmt("if", "if {0}:", [c], [Stmt("line", word)])]

    def s_container(self, sc: Scope) -> list:
        self.used.add("containers")
        r = self.r
        kind = r.choice(("list", "list", "comp", "tuple", "unpack", "dict", "dictcomp", "append", "reduce"))
        shape = self.pick_shape()
        d = self.d() - 1
        if kind == "list" or (kind in ("append", "reduce") and not sc.lists):
            n = self.name("xs")
            k = r.randint(2, 3)
            st = Stmt("line", n + " = [" + slots(k) + "]",
                      [self.texpr(sc, shape, d) for _ in range(k)])
            sc.lists[n] = shape
            return [st]
        if kind == "comp":
            n, v = self.name("xs"), self.name("c")
            inner = sc.child()
            if sc.lists and r.random() < 0.6:
                src = r.choice(sorted(sc.lists))
                shape = sc.lists[src]
                inner.tensors[v] = shape
                it = f"for {v} in {src}"
                if r.random() < 0.5:
                    ii = self.name("i")
                    inner.ints.add(ii)
                    it = f"for {ii}, {v} in enumerate({src})"
            else:
                inner.ints.add(v)
                it = f"for {v} in range({r.randint(2, 3)})"
            st = Stmt("line", n + " = [{0} " + it + "]", [self.texpr(inner, shape, d)])
            sc.lists[n] = shape
            return [st]
        if kind == "tuple":
            n = self.name("t")
            st = Stmt("line", n + " = ({0}, {1})", [self.texpr(sc, shape, d), self.texpr(sc, shape, d)])
            sc.tuples[n] = (shape, 2)
            return [st]
        if kind == "unpack":
            a, b = self.name("u"), self.name("u")
            if sc.tuples and r.random() < 0.5:
                t = r.choice([t for t, (s, k) in sc.tuples.items() if k == 2] or [None])
                if t is not None:
                    s = sc.tuples[t][0]
                    sc.tensors[a] = sc.tensors[b] = s
                    return [Stmt("line", f"{a}, {b} = {t}")]
            st = Stmt("line", f"{a}, {b} = {{0}}, {{1}}", [self.texpr(sc, shape, d), self.texpr(sc, shape, d)])
            sc.tensors[a] = sc.tensors[b] = shape
            return [st]
        if kind == "dict":
            n = self.name("d")
            keys = ("a", "b") if r.random() < 0.5 else ("a", "b", "c")
            body = ", ".join(f"{k!r}: {{{j}}}" for j, k in enumerate(keys))
            st = Stmt("line", n + " = {{" + body + "}}", [self.texpr(sc, shape, d) for _ in keys])
            sc.dicts[n] = (shape, keys)
            return [st]
        if kind == "dictcomp" and sc.dicts:
            src = r.choice(sorted(sc.dicts))
            shape, keys = sc.dicts[src]
            n, k, v = self.name("d"), self.name("k"), self.name("c")
            inner = sc.child()
            inner.tensors[v] = shape
            st = Stmt("line", n + " = {{" + f"{k}: {{0}} for {k}, {v} in {src}.items()" + "}}",
                      [self.texpr(inner, shape, d)])
            sc.dicts[n] = (shape, keys)
            return [st]
        if kind == "append" and not sc.loop:
            name = r.choice(sorted(sc.lists))
            return [Stmt("line", name + ".append({0})", [self.texpr(sc, sc.lists[name], d)])]
        if sc.lists:  # reduce a list into a tensor
            name = r.choice(sorted(sc.lists))
            shape = sc.lists[name]
            v = self.name("v")
            fmt = r.choice((f"{v} = ops.stack({name}).sum(0)", f"{v} = ops.addn({name})", f"{v} = sum({name})",
                            f"{v} = {name}[0] * len({name})"))
            sc.tensors[v] = shape
            return [Stmt("line", fmt)]
        return self.s_assign(sc)

    def s_assign_param(self, sc: Scope) -> list:
        """``ops.assign`` / ``assign_add`` on a Parameter (or, in the main function, a tensor argument)."""
        self.used.add("assign")
        r = self.r
        targets = list(sc.params.items())
        if sc.in_main:
            targets += [(a.name, tuple(np.shape(a.a))) for a in self.args if a.kind == "tensor"
                        and a.name in sc.tensors and r.random() < 0.3]
        if not targets:
            return self.s_assign(sc)
        name, shape = r.choice(targets)
        fn = r.choice(("ops.assign", "ops.assign", "ops.assign_add", "ops.assign_sub"))
        e = self.texpr(sc, shape, self.d() - 1)
        if fn != "ops.assign":
            e = Expr("ops.tanh({0})", [e], shape)
        return [Stmt("line", f"{fn}({name}, {{0}})", [e])]

    def s_closure(self, sc: Scope) -> list:
        self.used.add("closures")
        r = self.r
        shape = self.pick_shape()
        name = self.name("g")
        # the enclosing function's tensors are read-only in the closure: assigning one would make it a local of
        # the closure, read before assignment (UnboundLocalError whenever the closure runs: seeds 50429, 50477)
        inner = sc.child(in_main=False, loop=False, frozen=(sc.frozen | set(sc.tensors)) - {"z"})
        if r.random() < 0.4:
            inner.tensors["z"] = shape
            st = Stmt("line", f"{name} = lambda z: {{0}}", [self.texpr(inner, shape, 2)])
            arity = 1
        else:
            inner.tensors["z"] = shape
            inner.floats.add("s")
            st = Stmt("def", f"def {name}(z, s={r.choice(FLOATS)}):")
            st.body = self.block(inner, r.randint(0, 2)) + [Stmt("return", "return {0}", [self.texpr(inner, shape, 2)])]
            arity = 1
        sc.fns[name] = (arity, shape)
        return [st]

    def s_return(self, sc: Scope) -> list:
        """An early return with the final return's structure."""
        self.used.add("early_return")
        return [Stmt("return", self._ret_fmt, [self.texpr(sc, t, 2) if isinstance(t, tuple) else Expr("n", [], "i")
                                                for t in self._ret_types])]

    def s_fallback(self, sc: Scope) -> list:
        """Host-only Python on tensor values (issue 9: LAX runs it as a host segment)."""
        self.used.add("fallback")
        r = self.r
        cands = self.assignable(sc)
        if not cands:
            return self.s_assign(sc)
        name, shape = r.choice(cands)
        e0 = self.texpr(sc, (), 1)
        forms = [(name + " = {0} * float({1})", [Expr(name, [], shape), e0]),
                 (name + " = {0} + int({1} > 0)", [Expr(name, [], shape), e0]),
                 (name + " = {0} * Tensor(np.tanh({1}.asnumpy()))", [Expr(name, [], shape), Expr(name, [], shape)]),
                 (name + " = {0} + {1}.item()", [Expr(name, [], shape), e0]),
                 (name + " = {0} * round(float({1}), 1)", [Expr(name, [], shape), e0])]
        fmt, args = r.choice(forms)
        return [Stmt("line", fmt, args)]


"""Einsum as one primitive over a normalised equation (explicit output, no ellipsis), whose gradient with respect
to each operand is another einsum (diagonals re-embedded with identity factors, summed-away axes broadcast)."""
from __future__ import annotations

import string

import numpy as np

from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape

_LETTERS = string.ascii_letters


def normalize(equation: str, ranks: list) -> str:
    """An equation with '...' expanded into letters and an explicit output (NumPy's implicit rule: the letters
    that appear once, in alphabetical order, after the broadcast axes)."""
    eq = equation.replace(" ", "")
    lhs, _, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise ValueError(f"einsum: the equation {equation!r} names {len(terms)} operands, got {len(ranks)}")
    used = set(c for c in eq if c.isalpha())
    spare = [c for c in _LETTERS if c not in used]
    n_ell = 0
    for t, r in zip(terms, ranks):
        if "..." in t:
            n_ell = max(n_ell, r - (len(t) - 3))
    ell = "".join(spare[:n_ell])
    out_terms = []
    for t, r in zip(terms, ranks):
        if "..." in t:
            k = r - (len(t) - 3)
            t = t.replace("...", ell[n_ell - k:] if k else "")
        if len(t) != r or not all(c.isalpha() for c in t):
            raise ValueError(f"einsum: term {t!r} of {equation!r} does not match an operand of rank {r}")
        out_terms.append(t)
    if "->" in eq:
        out = rhs.replace("...", ell)
    else:
        counts = {}
        for t in out_terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    if not all(c.isalpha() for c in out) or len(set(out)) != len(out):
        raise ValueError(f"einsum: bad output subscripts {out!r} in {equation!r}")
    letters = set("".join(out_terms))
    if any(c not in letters for c in out):
        raise ValueError(f"einsum: output subscript in {out!r} does not appear in the inputs of {equation!r}")
    return ",".join(out_terms) + "->" + out


def _split(equation: str):
    lhs, rhs = equation.split("->")
    return lhs.split(","), rhs


def _einsum_infer(*xs, equation):
    terms, out = _split(equation)
    sizes: dict = {}
    dt = xs[0].dtype
    for t, x in zip(terms, xs):
        if x.dtype is not dt:
            raise TypeError(f"Einsum: operands must share one dtype, got {dt} and {x.dtype}")
        if len(t) != x.ndim:
            raise OpError(f"Einsum: term {t!r} does not match operand {fmt_shape(x.shape)}")
        for c, d in zip(t, x.shape):
            prev = sizes.get(c)
            if d is not None and prev not in (None, 1) and d not in (1, prev):
                raise OpError(f"Einsum: subscript {c!r} has sizes {prev} and {d} in {equation!r}")
            if d is not None and (prev is None or prev == 1):
                sizes[c] = d
    return TensorType(tuple(sizes.get(c) for c in out), dt)


def _einsum_impl(*xs, equation):
    return np.asarray(np.einsum(equation, *xs, optimize=len(xs) > 2))


def _einsum_bprop(*args, equation):
    xs, d = args[:-2], args[-1]
    terms, out = _split(equation)
    grads = []
    for i, (t, x) in enumerate(zip(terms, xs)):
        others = [(terms[j], xs[j]) for j in range(len(xs)) if j != i]
        avail = set(out) | set("".join(s for s, _ in others))
        seen, uniq = set(), ""
        for c in t:
            if c not in seen and c in avail:
                uniq += c
            seen.add(c)
        if uniq or others:
            g = F.einsum(",".join([out] + [s for s, _ in others]) + "->" + uniq, d, *[v for _, v in others])
        else:
            g = d
        # re-embed repeated subscripts (diagonals, through identity factors); axes summed inside this operand
        # alone come back as size-1 axes broadcast to the operand's shape
        spare = [c for c in _LETTERS if c not in equation]
        repeated = {c for c in t if t.count(c) > 1}
        full, eyes, firsts = "", [], set()
        for c, size in zip(t, x.shape):
            if c in firsts:
                n = spare.pop(0)
                full += n
                eyes.append((c + n, size))
            else:
                full += c
                firsts.add(c)
        fresh = {e[0][1] for e in eyes}
        target = "".join(c for c in full if c in uniq or c in repeated or c in fresh)
        if eyes:
            mats = [F.eye(size, size, d.dtype) for _, size in eyes]
            g = F.einsum(",".join([uniq] + [s for s, _ in eyes]) + "->" + target, g, *mats)
        if len(target) < len(full):
            g = F.reshape(g, tuple(s if c in target else 1 for c, s in zip(full, x.shape)))
        axes = tuple(k for k, (a, b) in enumerate(zip(x.shape, g.shape)) if a == 1 and b != 1)
        if axes:  # an ellipsis axis of size 1 that broadcast against the other operands
            g = F.sum(g, axes, True)
        if tuple(g.shape) != tuple(x.shape):
            g = F.broadcast_to(g, tuple(x.shape))
        grads.append(g)
    return tuple(grads)


EINSUM = register(Op("Einsum", _einsum_impl, _einsum_infer, _einsum_bprop, "opaque", fresh_output=True))

from . import functional as F  # noqa: E402

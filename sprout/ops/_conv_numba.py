"""The numba loops of ``conv_loops`` (imported only when that module loads them: importing this imports numba).
Module-level functions, so numba's on-disk cache holds them (a loop calling another jitted function through a
closure was compiled again in every process: ~6 s on W5's first eager step under load)."""
import numba

jit = numba.njit(cache=True, error_model="numpy", nogil=True)  # nogil: two streams run batch halves at once


@jit
def col2im(dcols, out):  # pragma: no cover - compiled
    c_, kh, kw, n_, ho, wo = dcols.shape
    out[:] = 0
    for n in range(n_):
        for c in range(c_):
            for i in range(kh):
                for j in range(kw):
                    for y in range(ho):
                        for x in range(wo):
                            out[n, c, y + i, x + j] += dcols[c, i, j, n, y, x]


@numba.njit(cache=True, inline="always")
def mx(m, v):  # pragma: no cover - compiled
    """np.maximum's rule: the first operand unless the second is larger or the first is NaN (a NaN in a
    window wins, ties keep the earlier tap: bitwise what the NumPy taps compute)."""
    return v if not (m >= v or m != m) else m


@jit
def max_pool2(x, out):  # pragma: no cover - compiled
    n_, c_, ho, wo = out.shape
    for n in range(n_):
        for c in range(c_):
            for y in range(ho):
                r0, r1, o = x[n, c, 2 * y], x[n, c, 2 * y + 1], out[n, c, y]
                for k in range(wo):
                    o[k] = mx(mx(mx(r0[2 * k], r0[2 * k + 1]), r1[2 * k]), r1[2 * k + 1])


@jit
def max_pool2_grad(x, dout, grad):  # pragma: no cover - compiled
    n_, c_, ho, wo = dout.shape
    for n in range(n_):
        for c in range(c_):
            for y in range(ho):
                r0, r1, d = x[n, c, 2 * y], x[n, c, 2 * y + 1], dout[n, c, y]
                g0, g1 = grad[n, c, 2 * y], grad[n, c, 2 * y + 1]
                for k in range(wo):
                    a, b, e, f = r0[2 * k], r0[2 * k + 1], r1[2 * k], r1[2 * k + 1]
                    m = mx(mx(mx(a, b), e), f)
                    dv = d[k]
                    ha = a == m  # the first tap equal to the maximum gets dout (none when it is NaN)
                    hb = (not ha) and b == m  # written out: "not (ha or hb)" measured 3.5x slower
                    he = (not ha) and (not hb) and e == m
                    hf = (not ha) and (not hb) and (not he) and f == m
                    g0[2 * k] = dv if ha else 0
                    g0[2 * k + 1] = dv if hb else 0
                    g1[2 * k] = dv if he else 0
                    g1[2 * k + 1] = dv if hf else 0

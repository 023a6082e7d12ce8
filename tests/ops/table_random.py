"""Op-table cases for the random primitives of ``ops/random_ext.py``: statistical checks (the draws are random;
the table checks that every mode draws the same numbers under one seed and new ones without reseeding)."""
import numpy as np
import scipy.stats as st

import sprout as ms
from sprout import ops
from optable import CONST, Case

N = 4000


def _stat(expect_mean=None, tol=0.06, lo=None, hi=None, dtype=np.float32, shape=(N,), integral=False):
    def check(out, inputs):
        v = out.asnumpy()
        assert v.shape == shape and v.dtype == dtype, (v.shape, v.dtype)
        if expect_mean is not None:
            assert abs(v.mean() - expect_mean) <= tol * max(1.0, abs(expect_mean)), (v.mean(), expect_mean)
        if lo is not None:
            assert v.min() >= lo
        if hi is not None:
            assert v.max() <= hi
        if integral:
            assert np.all(v == np.round(v))
    return check


def _ks(cdf, dtype=np.float32):
    """A Kolmogorov-Smirnov test against the distribution's CDF (p > 0.001)."""
    def check(out, inputs):
        v = out.asnumpy()
        assert v.dtype == dtype and v.shape == (N,)
        assert st.kstest(v.astype(np.float64), cdf).pvalue > 1e-3
    return check


def _multinomial_check(out, inputs):
    v = out.asnumpy()
    assert v.shape == (2, N) and v.dtype == np.int32
    assert abs((v[0] == 1).mean() - 0.8) < 0.03 and abs((v[1] == 2).mean() - 0.5) < 0.03 and not np.any(v[0] == 2)


def _no_replacement_check(out, inputs):
    v = out.asnumpy()
    assert v.shape == (3, 4) and all(len(set(r)) == 4 for r in v.tolist()) and v.max() < 5


def _logits_check(out, inputs):
    v = out.asnumpy()
    p = np.exp([0.0, 1.0, 2.0])
    assert v.dtype == np.int64 and np.abs(np.bincount(v[0], minlength=3) / N - p / p.sum()).max() < 0.03


def _perm_check(out, inputs):
    v = out.asnumpy()
    assert v.dtype == np.int64 and sorted(v.tolist()) == list(range(50)) and v.tolist() != list(range(50))


def _perm_pad_check(out, inputs):
    v = out.asnumpy()
    assert v.dtype == np.int32 and sorted(v[:6].tolist()) == list(range(6)) and v[6:].tolist() == [-1, -1]


def _shuffle_check(out, inputs):
    v, x = out.asnumpy(), inputs[0]
    assert sorted(map(tuple, v.tolist())) == sorted(map(tuple, x.tolist()))


def _choice_check(out, inputs):
    idx, mask = (t.asnumpy() for t in out)
    x = inputs[0]
    assert idx.dtype == np.int32 and mask.dtype == np.bool_ and idx.shape == (8, 2)
    picked = [tuple(r) for r, m in zip(idx.tolist(), mask) if m]
    assert len(picked) == min(8, int(x.sum())) == len(set(picked)) and all(x[p] for p in picked)
    assert not np.any(idx[~mask])


def _sampler_check(out, inputs):
    sampled, true_exp, samp_exp = (t.asnumpy() for t in out)
    assert sampled.dtype == np.int64 and len(set(sampled.tolist())) == 5 and sampled.max() < 20
    assert not set(sampled.tolist()) & {1, 3}  # accidental hits removed
    assert true_exp.shape == (2, 1) and np.all((true_exp > 0) & (true_exp <= 1)) and samp_exp.shape == (5,)


def _log_sampler_check(out, inputs):
    sampled, true_exp, samp_exp = (t.asnumpy() for t in out)
    p = (np.log(sampled + 2.0) - np.log(sampled + 1.0)) / np.log(21.0)
    np.testing.assert_allclose(samp_exp, p * 6, rtol=1e-6)  # non-unique: p * num_sampled
    assert true_exp.shape == (2, 1)


def _t(v):
    return ms.Tensor(np.float32(v))


def _ncdf(x):
    return st.norm.cdf(x)


WHY = "random draws: checked statistically (the table compares every mode's draws under one seed)"
PROB2 = CONST(np.array([[0.2, 0.8, 0.0], [0.25, 0.25, 0.5]], np.float32))

CASES = [
    Case("RandomSample", lambda: ops.gamma((N,), _t(2.0), _t(4.0)), (), check=_ks(st.gamma(2.0, scale=0.25).cdf),
         why=WHY, label="gamma"),
    Case("RandomSample", lambda: ops.poisson((N,), _t(3.0)), (), check=_stat(3.0, 0.05, lo=0, integral=True),
         why=WHY, label="poisson"),
    Case("RandomSample", lambda: ops.laplace((N,), _t(1.0), _t(0.5)), (), check=_ks(st.laplace(1.0, 0.5).cdf),
         why=WHY, label="laplace"),
    Case("RandomSample", lambda: ops.standard_laplace((N,)), (), check=_ks(st.laplace().cdf), why=WHY,
         label="standard-laplace"),
    Case("RandomSample", lambda: ops.Cauchy([N], 1.0, 2.0)(), (), check=_ks(st.cauchy(1.0, 2.0).cdf), why=WHY,
         label="cauchy"),
    Case("RandomSample", lambda: ops.LogNormalReverse(0.5, 0.3)(ms.Tensor(np.zeros(N, np.float32))), (),
         check=_ks(st.lognorm(0.3, scale=np.exp(0.5)).cdf), why=WHY, label="lognormal"),
    Case("RandomSample", lambda: ops.TruncatedNormal()((N,)), (),
         check=_ks(st.truncnorm(-2, 2).cdf), why=WHY, label="truncated-normal"),
    Case("RandomSample", lambda: ops.bernoulli(ms.Tensor(np.zeros(N, np.float32)), 0.3), (),
         check=_stat(0.3, 0.05, lo=0, hi=1, integral=True), why=WHY, label="bernoulli"),
    Case("RandomSample", lambda: ops.NonDeterministicInts()((N,)), (), check=_stat(None, dtype=np.int64), why=WHY,
         label="int64"),
    Case("Multinomial", lambda p: ops.multinomial(p, N), (PROB2,), check=_multinomial_check, why=WHY),
    Case("Multinomial", lambda: ops.multinomial(ms.Tensor(np.ones((3, 5), np.float32)), 4, False), (),
         check=_no_replacement_check, why=WHY, label="no-replacement"),
    Case("Multinomial", lambda: ops.random_categorical(ms.Tensor(np.array([[0.0, 1.0, 2.0]], np.float32)), N), (),
         check=_logits_check, why=WHY, label="logits"),
    Case("Randperm", lambda: ops.randperm(50), (), check=_perm_check, why=WHY),
    Case("Randperm", lambda: ops.Randperm(8, -1)(ms.Tensor(np.array([6], np.int32))), (), check=_perm_pad_check,
         why=WHY, label="pad"),
    Case("Shuffle", ops.shuffle, (CONST(np.arange(40).reshape(20, 2)),), check=_shuffle_check, why=WHY),
    Case("RandomChoiceWithMask", lambda m: ops.choice_with_mask(m, 8),
         (CONST(np.random.default_rng(0).random((4, 5)) < 0.5),), check=_choice_check, why=WHY),
    Case("CandidateSampler", lambda t: ops.uniform_candidate_sampler(t, 1, 5, True, 20, 0, True),
         (CONST(np.array([[1], [3]], np.int64)),), check=_sampler_check, why=WHY),
    Case("CandidateSampler", lambda t: ops.log_uniform_candidate_sampler(t, 1, 6, False, 20),
         (CONST(np.array([[1], [3]], np.int64)),), check=_log_sampler_check, why=WHY, label="log-uniform"),
]

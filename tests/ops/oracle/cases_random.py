"""Random functions and classes: MindSpore's output shapes and dtypes (the values are random)."""
from . import OC, C, U

A = C([1.0, 2.0], "float32")
P2 = C([[0.2, 0.8], [0.5, 0.5]], "float32")
TRUE = C([[1], [3]], "int64")

CASES = [OC(k, e, i, check="shape") for k, e, i in [
    ("random_gamma", "ops.random_gamma(Tensor([3], ms.int32), a)", {"a": A}),
    ("random_poisson", "ops.random_poisson(Tensor([3], ms.int32), a)", {"a": A}),
    ("laplace", "ops.laplace((2, 3), Tensor(1.0), Tensor(2.0))", {}),
    ("standard_laplace", "ops.standard_laplace((2, 3))", {}),
    ("multinomial", "ops.multinomial(p, 3)", {"p": P2}),
    ("multinomial_1d_noreplace", "ops.multinomial(p, 2, False)", {"p": C([0.2, 0.8, 0.1], "float32")}),
    ("multinomial_with_replacement", "ops.multinomial_with_replacement(p, Tensor(1, ms.int64), Tensor(0, ms.int64), "
     "3, True)", {"p": C([[0.2, 0.8]], "float32")}),
    ("random_categorical", "ops.random_categorical(p, 4)", {"p": P2}),
    ("randperm", "ops.randperm(5)", {}),
    ("shuffle", "ops.shuffle(x)", {"x": C([[0, 1], [2, 3], [4, 5]], "int64")}),
    ("bernoulli", "ops.bernoulli(x, 0.3)", {"x": U(2, 3)}),
    ("bernoulli_t", "ops.bernoulli(x)", {"x": C([[0.5, 0.1, 0.9]], "float32")}),
    ("choice_with_mask", "ops.choice_with_mask(m, 3)", {"m": C([[True, False], [True, True]])}),
    ("uniform_candidate_sampler", "ops.uniform_candidate_sampler(t, 1, 4, True, 10)", {"t": TRUE}),
    ("log_uniform_candidate_sampler", "ops.log_uniform_candidate_sampler(t, 1, 4, True, 10)", {"t": TRUE}),
    ("TruncatedNormal", "ops.TruncatedNormal()(Tensor([2, 3], ms.int32))", {}),
    ("Cauchy", "ops.Cauchy([2, 3])()", {}),
    ("LogNormalReverse", "ops.LogNormalReverse()(x)", {"x": U(2, 3)}),
    ("ParameterizedTruncatedNormal", "ops.ParameterizedTruncatedNormal()(Tensor([2, 3], ms.int32), m, s, lo, hi)",
     {"m": C([0.0, 1.0], "float32"), "s": C([1.0, 2.0], "float32"), "lo": C([-1.0, 0.0], "float32"),
      "hi": C([1.0, 3.0], "float32")}),
    ("NonDeterministicInts", "ops.NonDeterministicInts()(Tensor([2, 3], ms.int32))", {}),
    ("Bernoulli", "ops.Bernoulli()(x, Tensor(0.3))", {"x": U(2, 3)}),
    ("RandomShuffle", "ops.RandomShuffle()(x)", {"x": C([[0, 1], [2, 3], [4, 5]], "int64")}),
    ("Multinomial", "ops.Multinomial()(p, 3)", {"p": C([[0.2, 0.8]], "float32")}),
    ("StandardLaplace", "ops.StandardLaplace()((2, 3))", {}),
    ("RandomGamma", "ops.RandomGamma()(Tensor([3], ms.int32), a)", {"a": A}),
    ("RandomPoisson", "ops.RandomPoisson()(Tensor([3], ms.int32), a)", {"a": A}),
    ("RandomCategorical", "ops.RandomCategorical()(p, 3, 2)", {"p": C([[0.2, 0.8]], "float32")}),
    ("RandpermV2", "ops.RandpermV2()(5)", {}),
    ("RandomChoiceWithMask", "ops.RandomChoiceWithMask(3)(m)", {"m": C([[True, False], [True, True]])}),
    ("UniformCandidateSampler", "ops.UniformCandidateSampler(1, 4, True, 10)(t)", {"t": TRUE}),
    ("UniformReal", "ops.UniformReal(seed=2)((2, 3))", {}),
    ("StandardNormal", "ops.StandardNormal(seed=2)((2, 3))", {}),
    ("UniformInt", "ops.UniformInt()((2, 3), Tensor(0, ms.int32), Tensor(5, ms.int32))", {}),
    ("normal_t", "ops.normal((2, 3), Tensor([0.0, 1.0, 2.0]), Tensor(1.0))", {}),
    ("rand_seed", "ops.rand(2, 3, seed=1)", {}),
    ("randint_like", "ops.randint_like(x, 0, 5)", {"x": C([[1, 2]], "int32")}),
]]
CASES += [
    OC("randint_like_float_raises", "ops.randint_like(x, 0, 5)", {"x": U(2)}, check="raises"),
    OC("multinomial_too_many_raises", "ops.multinomial(p, 3, False)", {"p": C([0.2, 0.8], "float32")},
       check="raises"),
]

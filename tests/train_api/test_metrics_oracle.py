"""Every MindSpore 2.10 metric against its recorded results (cases in metric_cases.py, fixtures written by
tools/metrics_oracle.py): the same values for the same updates, the same exception types for misuse; plus the
multi-class ROC, which MindSpore 2.10 scrambles (it reshapes (N, C) scores to (C, N)), against scikit-learn."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("metric_cases", HERE / "metric_cases.py")
CASES_MOD = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CASES_MOD)
with np.load(HERE / "fixtures" / "metrics.npz") as _data:
    REF = {k: _data[k] for k in _data.files}
NS = {"nn": nn, "np": np, "Tensor": Tensor, "ms": ms}


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [y for v in value for y in _flat(v)]
    return [np.asarray(value.asnumpy() if isinstance(value, Tensor) else value, dtype=np.float64)]


@pytest.mark.parametrize("case", CASES_MOD.CASES, ids=lambda c: c[0])
def test_metric_matches_mindspore(case):
    key, ctor, updates, eval_kwargs = case
    metric = eval(ctor, NS)
    if eval_kwargs is None:
        result = metric(*[eval(a, NS) for a in updates[0]])
    else:
        for args in updates:
            metric.update(*[eval(a, NS) for a in args])
        result = metric.eval(**eval_kwargs)
    got = _flat(result)
    want = [REF[f"{key}|{i}"] for i in range(len(got))]
    assert f"{key}|{len(got)}" not in REF, f"{key}: fewer results than MindSpore"
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"{key} result {i}")


@pytest.mark.parametrize("item", CASES_MOD.ERRORS, ids=lambda e: e[0])
def test_metric_misuse_raises_like_mindspore(item):
    key, code = item
    want = str(REF[f"{key}|error"])
    if want == "ok":
        exec(code, dict(NS))
        return
    with pytest.raises(Exception) as info:
        exec(code, dict(NS))
    kinds = {"ValueError": ValueError, "TypeError": TypeError, "RuntimeError": RuntimeError, "KeyError": KeyError,
             "NotImplementedError": NotImplementedError}
    assert isinstance(info.value, kinds[want]), \
        f"{key}: sprout raised {type(info.value).__name__}: {info.value}; MindSpore raises {want}"


def test_multiclass_roc_is_one_vs_rest():
    from sklearn.metrics import roc_curve

    scores = np.random.default_rng(3).random((12, 3))
    labels = np.array([0, 1, 2, 2, 1, 0, 0, 2, 1, 1, 0, 2])
    m = nn.ROC(class_num=3)
    m.update(scores, labels)
    fpr, tpr, _ = m.eval()
    for c in range(3):
        want_fpr, want_tpr, _ = roc_curve(labels == c, scores[:, c], drop_intermediate=False)
        np.testing.assert_allclose(fpr[c], want_fpr)
        np.testing.assert_allclose(tpr[c], want_tpr)
    assert np.isclose(nn.auc(fpr[0], tpr[0]), np.trapezoid(tpr[0], fpr[0]) if hasattr(np, "trapezoid")
                      else np.trapz(tpr[0], fpr[0]))


def test_model_eval_with_new_metric_names():
    from sprout.train import Model

    net = nn.Dense(4, 3, weight_init="ones")
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True), metrics={"precision", "recall", "F1"})
    x = np.random.default_rng(0).standard_normal((6, 4)).astype(np.float32)
    y = np.array([0, 1, 2, 0, 1, 2], np.int32)
    import sprout.dataset as ds

    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(3)
    res = model.eval(data)
    assert set(res) == {"F1", "precision", "recall"} and len(res["precision"]) == 3

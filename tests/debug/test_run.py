"""python -m sprout.run: an unmodified MindSpore script runs on sprout."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import mindspore
    import mindspore as ms
    from mindspore import nn, Tensor, context
    import mindspore.dataset as ds
    import mindspore.ops.operations as P
    import mindspore.ops.functional as F
    import mindspore.ops.composite as C
    import mindspore.common.dtype as mstype
    from mindspore.common.initializer import Normal
    from mindspore.nn.optim import Momentum
    from mindspore.dataset.transforms.c_transforms import TypeCast

    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    ms.set_seed(1)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 1, weight_init=Normal(0.02))
            self.relu = P.ReLU()

        def construct(self, x):
            return self.fc(self.relu(x))

    x = np.random.default_rng(0).standard_normal((16, 4)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True).astype(np.float64)
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    data = data.map(operations=TypeCast(mstype.float32), input_columns="y")
    net = Net()
    opt = Momentum(net.trainable_params(), 0.05, 0.9)
    loss_fn = nn.MSELoss()

    def forward(a, b):
        return loss_fn(net(a), b)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    first = last = None
    for epoch in range(5):
        for a, b in data.create_tuple_iterator():
            loss, grads = grad_fn(a, b)
            opt(grads)
            first = float(loss.asnumpy()) if first is None else first
            last = float(loss.asnumpy())

    @ms.jit
    def step(a, b):
        return F.add(P.ReLU()(a), b) * 2

    print("jit", step(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32))))
    print("module", mindspore.__name__, type(Tensor(1.0)).__module__.split(".")[0])
    print("argv", sys.argv[1:])
    print("composite", C.GradOperation is ms.ops.GradOperation, mstype.float32 is ms.float32)
    print("decreased", last < first)
""")


def _run(tmp_path, source, *args):
    path = tmp_path / "script.py"
    path.write_text(source)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "sprout.run", *args, str(path), "one", "--two"],
                          capture_output=True, text=True, cwd=str(tmp_path), env=env, timeout=120)


def test_runs_mindspore_script(tmp_path):
    res = _run(tmp_path, SCRIPT)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "jit [4. 4.]" in out
    assert "module mindspore sprout" in out
    assert "argv ['one', '--two']" in out
    assert "composite True True" in out
    assert "decreased True" in out


def test_report_and_profile_flags(tmp_path):
    res = _run(tmp_path, SCRIPT, "--report", "--profile", str(tmp_path / "prof"))
    assert res.returncode == 0, res.stderr
    assert "sprout jit report:" in res.stdout and "step (script.py:" in res.stdout
    assert (tmp_path / "prof" / "trace_view.json").exists()


def test_missing_module_names_mindspore_module(tmp_path):
    res = _run(tmp_path, "import mindspore.rewrite\n")
    assert res.returncode != 0
    assert "sprout does not provide the MindSpore module 'mindspore.rewrite'" in res.stderr


def test_exit_code_propagates(tmp_path):
    res = _run(tmp_path, "import sys\nimport mindspore\nsys.exit(3)\n")
    assert res.returncode == 3


def test_in_process_alias():
    from sprout import run

    run.install_alias()
    try:
        import mindspore
        import mindspore.nn as mnn
        import mindspore.ops.operations as P

        import sprout
        assert mnn is sprout.nn
        assert P.__sprout__ is sprout.ops.primitive_classes and P.ReLU is sprout.ops.ReLU  # a family root
        assert mindspore.Tensor is sprout.Tensor
        assert sprout.nn.__spec__.name == "sprout.nn"     # the alias does not rename sprout's modules
        with pytest.raises(ModuleNotFoundError, match="mindspore.rewrite"):
            import mindspore.rewrite  # noqa: F401
    finally:
        run.uninstall_alias()


def test_mindspore_nn_modules_by_file():
    """MindSpore's nn submodules (code imports names from the file that defines them) resolve to the sprout
    namespace holding those names."""
    from sprout import run

    run.install_alias()
    try:
        from mindspore.nn.layer.activation import get_activation
        from mindspore.nn.layer.basic import Dense, UnfoldExt
        from mindspore.nn.layer.pooling import LPPool2d, FractionalMaxPool2d  # noqa: F401
        from mindspore.nn.optim.rmsprop import RMSProp
        from mindspore.nn.wrap.cell_wrapper import ForwardValueAndGrad, WithLossCell  # noqa: F401
        from mindspore.nn.grad.cell_grad import Jvp  # noqa: F401
        from mindspore.experimental.optim.adamw import AdamW
        from mindspore.experimental.optim.adam import Adam  # noqa: F401
        from mindspore.mint.optim.sgd import SGD

        import sprout
        assert get_activation is sprout.nn.get_activation and Dense is sprout.nn.Dense
        assert RMSProp is sprout.nn.RMSProp and UnfoldExt is sprout.mint.nn.Unfold
        assert AdamW is sprout.experimental.optim.AdamW and SGD is sprout.mint.optim.SGD
        assert "Fold" not in dir(sprout.nn)  # only in MindSpore's layer module, not its nn namespace
        with pytest.raises(ModuleNotFoundError, match="thor"):
            import mindspore.nn.optim.thor  # noqa: F401
    finally:
        run.uninstall_alias()


DEEP = textwrap.dedent("""
    import numpy as np
    from mindspore.ops.operations import *  # first: ops has a Dense primitive too
    from mindspore.nn.layer.basic import Dense
    from mindspore.nn.layer.normalization import BatchNorm2d
    from mindspore.nn.layer.activation import get_activation
    from mindspore.ops.operations.nn_ops import ReLU
    from mindspore.ops.operations import math_ops as M
    from mindspore.ops.operations.comm_ops import AllReduce
    from mindspore.ops.function.nn_func import relu
    from mindspore.nn.wrap.loss_scale import TrainOneStepWithLossScaleCell
    import mindspore as ms
    x = ms.Tensor(np.array([[-1.0, 2.0]], np.float32))
    assert Dense(2, 3)(x).shape == (1, 3) and ReLU()(x).asnumpy().tolist() == [[0.0, 2.0]]
    assert M.Add()(x, x).asnumpy().tolist() == [[-2.0, 4.0]] and relu(x).asnumpy().tolist() == [[0.0, 2.0]]
    assert Mul()(x, x).asnumpy().tolist() == [[1.0, 4.0]]  # from the star import
    assert BatchNorm2d and get_activation("relu") and AllReduce and TrainOneStepWithLossScaleCell
    try:
        from mindspore.nn.layer.basic import NoSuchLayer
    except ImportError as e:
        print("ImportError:", e)
""")


def test_mindspore_implementation_module_paths(tmp_path):
    """Deep MindSpore module paths (mindspore.nn.layer.basic, mindspore.ops.operations.nn_ops, ...) resolve to
    sprout's flat namespaces; a name sprout lacks is a plain ImportError naming it."""
    script = tmp_path / "deep.py"
    script.write_text(DEEP)
    out = subprocess.run([sys.executable, "-m", "sprout.run", str(script)], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "cannot import name 'NoSuchLayer'" in out.stdout

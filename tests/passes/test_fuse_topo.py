"""fuse's re-sort of a graph's nodes (_stable_topo) against its definition: repeatedly place the earliest pending
node that is ready (inputs defined; while possible, order dependencies placed), on shuffled real graphs."""
import random

import numpy as np

import sprout as ms
from sprout import nn, ops
from sprout.capture.trace import trace
from sprout.ir.effects import order_deps
from sprout.ir.graph import Var
from sprout.passes.fuse import _stable_topo


def by_definition(nodes: list, defined: set) -> list:
    deps, out, pending, done = order_deps(nodes), [], [], set()

    def ready(p, strict):
        return all(x.uid in defined for x in p.inputs if isinstance(x, Var)) and \
            (not strict or all(id(r) in done for r in deps.get(id(p), ())))

    def step(strict):
        for k, p in enumerate(pending):
            if ready(p, strict):
                out.append(pending.pop(k))
                done.add(id(p))
                defined.update(o.uid for o in p.outputs)
                return True
        return False

    for node in nodes:
        pending.append(node)
        while step(True):
            pass
    while pending and (step(True) or step(False)):
        while step(False):
            pass
    assert not pending
    return out


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones((3, 3), np.float32)), name="w")

    def construct(self, x):
        y = ops.tanh(x @ self.w) * 2 + x
        ops.assign(self.w, self.w - 0.1 * y)  # a state write after the reads of w
        z = ops.exp(y) - ops.sigmoid(x)
        return (z * self.w).sum() + y.mean()


def graph():
    net = Net()
    x = ms.Tensor(np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3))
    grad = ms.value_and_grad(net, None, net.trainable_params())
    return trace(lambda a: grad(a), (x,), {}, name="step").graph


def test_matches_the_definition_on_shuffled_graphs():
    g = graph()
    inputs = {v.uid for v in g.inputs}
    assert _stable_topo(list(g.nodes), set(inputs)) == list(g.nodes)  # program order is kept as it is
    rng = random.Random(7)
    for _ in range(30):
        nodes = list(g.nodes)
        # move a few nodes later or earlier (as grouping moves a fused node to its last member)
        for _ in range(rng.randint(1, 6)):
            k = rng.randrange(len(nodes))
            nodes.insert(rng.randrange(len(nodes)), nodes.pop(k))
        want = by_definition(list(nodes), set(inputs))
        got = _stable_topo(list(nodes), set(inputs))
        assert [id(n) for n in got] == [id(n) for n in want]

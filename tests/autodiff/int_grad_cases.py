"""Programs whose inputs are int32 tensors, differentiated eagerly and in graphs (shared with the oracle script
tools/ms_oracle_int_grads.py, which runs them on MindSpore 2.10; ``use`` binds the framework)."""
import numpy as np

ms = None


def use(module) -> None:
    global ms
    ms = module


def mul_add(x, y):
    return x * y * 3 + x


def tensor_while(x, y):
    while x < 10:
        x = x * y
    return x


def branch_in_tensor_while(x, y):
    i = ms.Tensor(0, ms.int32)
    acc = ms.Tensor(0, ms.int32)
    while i < 10:
        if acc <= 20:
            acc = x * y + acc
        i = i + 1
    return acc


def unrolled_for_with_break(x, y):
    acc = ms.Tensor(0, ms.int32)
    for k in range(3):
        if k % 2 == 0:
            continue
        acc = x * y + acc
        if acc > 20:
            break
    return acc


def int_and_float(x, w):
    return (x * x).astype(ms.float32) * w + x.astype(ms.float32)


CASES = {
    "mul_add": (mul_add, [(2, "int32"), (5, "int32")]),
    "tensor_while": (tensor_while, [(2, "int32"), (5, "int32")]),
    "branch_in_tensor_while": (branch_in_tensor_while, [(1, "int32"), (3, "int32")]),
    "unrolled_for_with_break": (unrolled_for_with_break, [(1, "int32"), (3, "int32")]),
    "int_and_float": (int_and_float, [(3, "int32"), (0.5, "float32")]),
}


def inputs(name: str) -> list:
    return [ms.Tensor(np.array(v, dtype=dt)) for v, dt in CASES[name][1]]

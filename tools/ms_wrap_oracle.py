"""Run tests/nn/wrap_cases.py in MindSpore 2.10 and store the outputs:

    /work/msvenv/bin/python tools/ms_wrap_oracle.py    # -> tests/nn/fixtures/wrap_extra.npz"""
import importlib.util
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, Parameter, ParameterTuple

ROOT = Path(__file__).resolve().parents[1]

spec = importlib.util.spec_from_file_location("wrap_cases", ROOT / "tests" / "nn" / "wrap_cases.py")
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
ms.set_context(mode=ms.PYNATIVE_MODE)
out = cases.run(nn, Tensor, Parameter, ParameterTuple, np)
np.savez_compressed(ROOT / "tests" / "nn" / "fixtures" / "wrap_extra.npz",
                    **{f"{k}|{i}": v for k, vs in out.items() for i, v in enumerate(vs)})
print(len(out), "scenarios")

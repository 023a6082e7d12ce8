"""Rank 1 misbehaves after one good AllReduce (argv[1]: raise | hang | exit | shape | dtype); the others go on."""
import os
import sys
import time

import numpy as np

import sprout as ms
from sprout import ops
from sprout.communication import get_rank, init

ms.set_context(comm_timeout=float(os.environ.get("TEST_COMM_TIMEOUT", "2")))
init()
x = ms.Tensor(np.ones(4, np.float32))
ops.AllReduce()(x)
mode = sys.argv[1]
if get_rank() == 1:
    if mode == "raise":
        print("rank 1 raises at", time.time(), flush=True)
        raise ValueError("boom on rank 1")
    if mode == "hang":
        time.sleep(120)
    if mode == "exit":
        sys.exit(0)
    if mode == "shape":
        x = ms.Tensor(np.ones(3, np.float32))
    if mode == "dtype":
        x = ms.Tensor(np.ones(4, np.float64))
ops.AllReduce()(x)
print("rank", get_rank(), "done", flush=True)

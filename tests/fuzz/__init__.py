"""Differential fuzzers (issue 9): random programs eager vs jit(ast) vs jit(bytecode), random IR graphs
through the pass pipeline and code generator against the reference interpreter, and their regressions."""

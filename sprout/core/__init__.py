"""Core: types, the op record and registry, dispatch, Tensor."""

"""Reverse-mode autodiff: the eager tape and the grad / value_and_grad / GradOperation API."""

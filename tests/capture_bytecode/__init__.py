"""Tests of PIJit (bytecode capture)."""

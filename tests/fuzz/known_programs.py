"""Failing (check, mode) pairs per seed of the default program fuzz run (seeds 0-29): the open
findings (notes/fuzz-findings.md). A check failing in another way (a refusal that became a
disagreement after a fix) is still known; a check that agreed and now fails is a regression.
Regenerate after fixes: ``python -m tests.fuzz --count 30 --write-known tests/fuzz/known_programs.py``.
"""
KNOWN = {
}

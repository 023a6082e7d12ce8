"""Prints this rank's OpenBLAS thread count after init() (plain mpiexec: init caps it to cores // local ranks)."""
from sprout.communication import get_rank, init
from sprout.communication.blas import blas_threads, cores

init()
print(f"rank {get_rank()} blas {blas_threads()} cores {cores()}", flush=True)

"""ops.TridiagonalMatMul and ops.MatrixSolveLs against MindSpore 2.10's CPU kernels."""
from . import OC, U

F64 = "Tensor(np.float64({}))".format

CASES = [
    OC("tridiagonal_matmul", "ops.TridiagonalMatMul()(sup, main, sub, rhs)",
       {"sup": U(2, 1, 4), "main": U(2, 1, 4), "sub": U(2, 1, 4), "rhs": U(2, 4, 3)}),
    OC("tridiagonal_matmul_single_row", "ops.TridiagonalMatMul()(sup, main, sub, rhs)",
       {"sup": U(1, 1), "main": U(1, 1), "sub": U(1, 1), "rhs": U(1, 2)}),
    OC("tridiagonal_matmul_float64", "ops.TridiagonalMatMul()(sup, main, sub, rhs)",
       {"sup": U(1, 5, dtype="float64"), "main": U(1, 5, dtype="float64"), "sub": U(1, 5, dtype="float64"),
        "rhs": U(5, 2, dtype="float64")}),
    OC("tridiagonal_matmul_mismatch", "ops.TridiagonalMatMul()(sup, main, sub, rhs)",
       {"sup": U(1, 4), "main": U(1, 4), "sub": U(1, 4), "rhs": U(3, 2)}, check="raises"),
    OC("tridiagonal_matmul_dtypes", "ops.TridiagonalMatMul()(sup, main, sub, rhs)",
       {"sup": U(1, 4), "main": U(1, 4), "sub": U(1, 4), "rhs": U(4, 2, dtype="float64")}, check="raises"),
    OC("matrix_solve_ls", f"ops.MatrixSolveLs()(a, b, {F64(0.0)})", {"a": U(5, 3), "b": U(5, 2)}, rtol=1e-4,
       atol=1e-5),
    OC("matrix_solve_ls_l2", f"ops.MatrixSolveLs()(a, b, {F64(0.5)})", {"a": U(2, 5, 3, dtype="float64"),
                                                                        "b": U(2, 5, 2, dtype="float64")}),
    OC("matrix_solve_ls_underdetermined", f"ops.MatrixSolveLs()(a, b, {F64(0.3)})",
       {"a": U(2, 4, dtype="float64"), "b": U(2, 1, dtype="float64")}),
    OC("matrix_solve_ls_slow", f"ops.MatrixSolveLs(False)(a, b, {F64(0.5)})",
       {"a": U(5, 3, dtype="float64"), "b": U(5, 2, dtype="float64")}),
    OC("matrix_solve_ls_slow_underdetermined", f"ops.MatrixSolveLs(False)(a, b, {F64(0.0)})",
       {"a": U(2, 4, dtype="float64"), "b": U(2, 1, dtype="float64")}),
    OC("matrix_solve_ls_float32_l2", "ops.MatrixSolveLs()(a, b, Tensor(np.float32(0.1)))",
       {"a": U(5, 3, dtype="float64"), "b": U(5, 2, dtype="float64")}, check="raises"),
    OC("matrix_solve_ls_rows", f"ops.MatrixSolveLs()(a, b, {F64(0.0)})",
       {"a": U(5, 3, dtype="float64"), "b": U(4, 2, dtype="float64")}, check="raises"),
    OC("matrix_solve_ls_int_fast", "ops.MatrixSolveLs(fast=1)", {}, check="raises"),
]

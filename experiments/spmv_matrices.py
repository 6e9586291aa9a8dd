#!/usr/bin/env python3
"""Real sparse matrices that a PyPI package ships, written as Matrix Market files for
`mmvram kernels spmv --matrix` (docs/kernels.md "SpMV"). Nothing is downloaded: the matrices
are read from the installed package's own files.

Source: SciPy's wheel ships scipy/sparse/linalg/tests/propack_test_data.npz (checked in SciPy
1.17.1), two matrices distributed with PROPACK 2.1 as pickled SciPy sparse matrices:
  A_real     illc1850  (Harwell-Boeing least-squares problem, 1850 x 712, 8636 entries)
  A_complex  mhd1280b  (magnetohydrodynamics, 1280 x 1280, complex): written as its real part
             (mhd1280b_real.mtx), entries whose real part is 0 kept, so the pattern is the
             matrix's own.

    python3 experiments/spmv_matrices.py OUT_DIR     (needs: pip install scipy)

Exit 1 with one line when SciPy or its test data is missing (some builds strip the tests).
"""
import os
import sys


def write_matrix_market(path, a, comment):
    """Writes sparse matrix a (real) as 'coordinate real general', 1-based, row-major order."""
    coo = a.tocoo()
    order = sorted(range(coo.nnz), key=lambda k: (int(coo.row[k]), int(coo.col[k])))
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n")
        f.write(f"% {comment}\n")
        f.write(f"{coo.shape[0]} {coo.shape[1]} {coo.nnz}\n")
        for k in order:
            f.write(f"{int(coo.row[k]) + 1} {int(coo.col[k]) + 1} {float(coo.data[k])!r}\n")


def main():
    if len(sys.argv) != 2:
        print("usage: spmv_matrices.py OUT_DIR", file=sys.stderr)
        return 2
    try:
        import numpy as np
        import scipy
        import scipy.sparse.linalg.tests as tests
    except ImportError as e:
        print(f"spmv_matrices.py: needs SciPy with its tests ({e}); pip install scipy", file=sys.stderr)
        return 1
    data = os.path.join(os.path.dirname(tests.__file__), "propack_test_data.npz")
    if not os.path.isfile(data):
        print(f"spmv_matrices.py: {data} is missing from this SciPy {scipy.__version__}", file=sys.stderr)
        return 1
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    # The file holds pickled SciPy sparse matrices: trusted here, it is the installed package's own.
    with np.load(data, allow_pickle=True) as d:
        real = d["A_real"].item()
        complex_ = d["A_complex"].item().tocoo()
    origin = f"from SciPy {scipy.__version__} scipy/sparse/linalg/tests/propack_test_data.npz"
    mhd = scipy.sparse.coo_matrix((complex_.data.real, (complex_.row, complex_.col)), shape=complex_.shape)
    for name, a, what in (("illc1850", real, "A_real: illc1850 (PROPACK 2.1)"),
                          ("mhd1280b_real", mhd, "A_complex: mhd1280b (PROPACK 2.1), real part")):
        path = os.path.join(out, name + ".mtx")
        write_matrix_market(path, a, f"{what}, {origin}")
        print(f"{path}: {a.shape[0]} x {a.shape[1]}, {a.nnz} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Least squares and statistics written for NumPy; only the import line says darray (CI runs it both ways)."""
import darray as np

x = np.arange(1, 101, dtype=np.float64)
A = np.vstack([x, np.ones_like(x)]).T
y = 3.0 * x + 2.0 + np.sin(x)
slope, intercept = np.linalg.lstsq(A, y, rcond=None)[0]
print("numpy_linear: fit", round(float(slope), 6), round(float(intercept), 6))

H = np.fromfunction(lambda i, j: 1.0 / (i + j + 1), (6, 6))
print("hilbert condition", round(float(np.log10(np.linalg.cond(H))), 4))
print("hilbert inverse corner", round(float(np.linalg.inv(H)[0, 0]), 3))
G = np.einsum("ij,kj->ik", A[:4], A[:4])
print("gram", G.shape, np.allclose(G, A[:4] @ A[:4].T))

data = np.column_stack([x, np.sqrt(x), np.log(x)])
print("covariance", np.round(np.cov(data, rowvar=False)[0], 4))
print("correlation", np.round(np.corrcoef(data.T)[0, 1:], 6))
print("mean", np.round(np.mean(data, axis=0), 6), "median", np.round(np.median(data, axis=0), 6))
z = (data - data.mean(0)) / data.std(0)
print("clipped sums", np.round(np.clip(z, -1, 1).sum(axis=0), 6))

labels = np.digitize(x, [25, 50, 75])
print("bin counts", np.bincount(labels))
values, counts = np.unique(labels, return_counts=True)
print("unique", values, counts)
print("argmax of H", [int(i) for i in np.unravel_index(np.argmax(H - np.eye(6)), H.shape)])
print("trace", round(float(np.trace(np.tril(H))), 6), round(float(np.diag(H).sum()), 6))
order = np.lexsort((data[:, 2], labels))
print("lexsort head", order[:5])
blocks = np.split(x, 4)
print("block means", [round(float(b.mean()), 2) for b in blocks])
print("outer", np.outer(x[:3], x[:2]).ravel(), "kron", np.kron(np.eye(2), np.ones((1, 2))).sum())

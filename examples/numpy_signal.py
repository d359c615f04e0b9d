"""Signal analysis written for NumPy; only the import line says darray (CI runs it both ways)."""
import darray as np

t = np.linspace(0.0, 1.0, 2048, endpoint=False)
signal = np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 120 * t) + 0.1 * np.cos(2 * np.pi * 7 * t)

window = np.hanning(signal.size)
spectrum = np.abs(np.fft.rfft(signal * window))
freqs = np.fft.rfftfreq(signal.size, d=1.0 / 2048)
peaks = np.argsort(spectrum)[::-1][:2]
print("numpy_signal: strongest frequencies", np.sort(freqs[peaks]))

smooth = np.convolve(signal, np.ones(16) / 16, mode="same")
print("moving average range", round(float(smooth.min()), 6), round(float(smooth.max()), 6))

energy = np.cumsum(signal ** 2)
print("energy", round(float(energy[-1]), 6), round(float(np.trapezoid(signal ** 2, t)), 6))

slope = np.gradient(signal, t)
print("max slope", round(float(np.abs(slope).max()), 4))

crossings = np.flatnonzero(np.diff(np.signbit(signal)))
print("zero crossings", crossings.size, crossings[:4])

coeffs = np.polyfit(t[:200], signal[:200], 5)
print("polyfit residual", round(float(np.linalg.norm(np.polyval(coeffs, t[:200]) - signal[:200])), 6))

hist, edges = np.histogram(signal, bins=8, range=(-2, 2))
print("histogram", hist, edges[:3])
print("percentiles", np.round(np.percentile(signal, [5, 50, 95]), 6))
print("median of |x|", round(float(np.median(np.abs(signal))), 6))

frames = np.lib.stride_tricks.sliding_window_view(signal, 256)[::256]
print("frame rms", np.round(np.sqrt(np.mean(frames ** 2, axis=1)), 4))
loud = np.where(np.abs(signal) > 1.2, signal, 0.0)
print("loud samples", np.count_nonzero(loud), np.allclose(loud[np.abs(signal) <= 1.2], 0))

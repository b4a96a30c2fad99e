# The driver Nsight Compute profiled: best (the dispatcher's pick) three times on 1 GiB of
# DTYPE rows of N values. Usage: python3 driver.py DTYPE N (libsmlbest.so at /tmp/libsmlbest.so).
import sys, torch
sys.path.insert(0, "bench")  # run from the repository root
import peers
lib = peers.BestLib("/tmp/libsmlbest.so")
dt, n = sys.argv[1], int(sys.argv[2])
name, code = peers.DTYPES[dt]
m = (1 << 30) // (n * torch.tensor([], dtype=getattr(torch, name)).element_size())
x = torch.randn(m, n, device="cuda", dtype=getattr(torch, name))
y = torch.empty_like(x)
print(dt, n, m, lib.describe(n, code))
for _ in range(3):
    lib.run(x, y, code)
torch.cuda.synchronize()

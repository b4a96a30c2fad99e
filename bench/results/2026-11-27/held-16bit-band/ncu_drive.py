# ncu driver (temporary): best at one (dtype, N), 1 GiB of input, launched 6 times.
import sys, torch
sys.path.insert(0, "bench")
import peers
lib, dt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
dtype = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[dt]
code = {"fp32": 0, "fp16": 1, "bf16": 2}[dt]
esize = torch.empty(0, dtype=dtype).element_size()
rows = max(1, (1 << 30) // (n * esize))
x = torch.randn(rows, n, device="cuda", dtype=torch.float32).to(dtype)
y = torch.empty_like(x)
b = peers.BestLib(lib)
for _ in range(6):
    b.run(x, y, code)
torch.cuda.synchronize()
print(dt, n, rows, b.describe(n, code))

"""Plain PyTorch Algorithm 1 of the PGBB paper, for the side-by-side benchmark.

The paper's regression setting (Section 5.1, SM S3.2): Huber regression with
scale, n records with p covariates in [-1, 1], S blocks with Dirichlet(gamma)
block weights, Poisson subsampling at rate q, K = 1 draw per iteration, the
per-record gradients clipped to C, Gaussian noise of sd sigma on their
weighted sum (eq. 4), back-propagated through a ReLU generator G(u) (3 x 256,
SM S3.2's, unless the widths are given), Adam. Written as a PyTorch user would: tensors, autograd for the generator,
closed-form per-record Huber gradients (no per-sample autograd needed), one
thread (torch.set_num_threads(1)), as pgbb is timed.

Usage: python3 bench/pytorch_alg1.py n T sigma C [seed] [widths, e.g. 32,32]
Prints one line: RESULT <training seconds (CPU)> <training seconds (wall)>
"""
import sys
import time

import torch

n, T = int(sys.argv[1]), int(sys.argv[2])
sigma, C = float(sys.argv[3]), float(sys.argv[4])
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
widths = [int(h) for h in sys.argv[6].split(",")] if len(sys.argv) > 6 else [256, 256, 256]
torch.set_num_threads(1)
torch.manual_seed(seed)
p, S, q, gamma, c_h, kappa = 3, 20, 0.1, 1.0, 1.345, 0.71

x = torch.rand(n, p) * 2 - 1
y = x @ torch.tensor([1.5, -1.5, 1.0]) + 0.5 * torch.distributions.StudentT(3.0).sample((n,))
block = torch.randperm(n) % S
block_size = torch.bincount(block, minlength=S).float()

layers, width_in = [], S
for h in widths:
    layers += [torch.nn.Linear(width_in, h), torch.nn.ReLU()]
    width_in = h
gen = torch.nn.Sequential(*layers, torch.nn.Linear(width_in, p + 1))
opt = torch.optim.Adam(gen.parameters(), lr=5e-4)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=T, eta_min=5e-6)
dirichlet = torch.distributions.Dirichlet(torch.full((S,), gamma))


def huber_grads(theta, xb, yb):
    """Per-record gradients of sigma rho_c(r / sigma) + kappa sigma / 2."""
    beta, s = theta[:p], torch.nn.functional.softplus(theta[p]) + 1e-3
    z = (yb - xb @ beta) / s
    psi = z.clamp(-c_h, c_h)
    rho = torch.where(z.abs() <= c_h, 0.5 * z * z, c_h * z.abs() - 0.5 * c_h * c_h)
    g_beta = -psi[:, None] * xb
    g_s = (rho - z * psi + kappa / 2)[:, None]
    return torch.cat([g_beta, g_s], dim=1)


cpu0, wall0 = time.process_time(), time.perf_counter()
for t in range(T):
    keep = torch.rand(n) < q                                   # Poisson subset B_t
    xb, yb, bb = x[keep], y[keep], block[keep]
    u = dirichlet.sample()                                     # block weights u_t
    theta = gen(u * S)
    with torch.no_grad():
        g = huber_grads(theta, xb, yb)
        norm = g.norm(dim=1, keepdim=True)
        g = g * torch.clamp(C / norm, max=1.0)                 # clip_C
        w = (u / block_size)[bb]                               # w-bar_j = u_pi(j) / n_pi(j)
        stat = (w[:, None] * g).sum(0) + sigma * torch.randn(p + 1)   # eq. (4)
    opt.zero_grad()
    theta.backward(stat)                                       # noise enters before G's Jacobian
    opt.step()
    sched.step()
cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
print(f"RESULT {cpu:.3f} {wall:.3f}")

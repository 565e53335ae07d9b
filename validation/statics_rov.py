"""The ROV umbilical of ``rov_manoeuvre.yaml`` at t = 0 as a continuum Kirchhoff rod: does
it have a static equilibrium without compression? (docs/statics.md, "No equilibrium",
the held roll.)

Written here from the textbook rod (Antman, *Nonlinear Problems of Elasticity*, ch. 4;
the Kirchhoff kinetic analogy), independently of the higher_order model: an inextensible,
isotropic rod with bending stiffness EI and twist stiffness GJ, no load along it (neutrally
buoyant, still water), clamped at s = 0 (tangent t0, roll held), held at s = L with its roll
held and no bending moment. With n = P the constant internal force (n' = 0) and m the
moment,

    r' = t,   t' = (m × t) / EI,   m' = P × t,   m = EI t × t' + M t,

M = m·t the twisting moment, constant along the rod; the tension is T = P·t. The total twist
Θ = ∫τ ds is the angle about t(L) from the start's roll datum, parallel-transported along the
rod (p' = −(p·t') t), to the end's (docs/higher_order.md, "Twist": e₁ = Z × q/|Z × q|, Y for
a vertical tangent), and M = GJ Θ / L. Unknowns P (3), the start's bending moment (2) and
M; equations r(L) = r_end (3), m(L) × t(L) = 0 (2 independent) and the twist
wrap(Θ(shape) − M L / GJ) = 0 (every 2π branch). Shooting with RK4 on s (nondimensional:
EI = 1, L = 1), Gauss-Newton from many random starts at once (numpy, vectorised).

``python -m validation.statics_rov [starts] [seed] [RK4 steps]`` prints every distinct
equilibrium the search finds, with its least tension (a shape with T < 0 somewhere needs
compression, which the example's tether, seed 004 eq. 2.17, does not take); ``python -m
validation.statics_rov scan K seed M̂ ...`` the least tension of every rod through the ends
at fixed twisting moments M̂ = M L / EI, the twist equation left out.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

EXAMPLE = (Path(__file__).resolve().parents[1] / "src" / "tetherdyn" / "examples"
           / "rov_manoeuvre.yaml")
NSTEP = 100  #: RK4 steps along the rod (100 and 400 give the same equilibria to 4 digits)
FD = 1e-7  #: forward-difference step of the shooting Jacobian


@dataclass
class Rod:
    """The rod nondimensionalised by L and EI: the end r_end / L, the start tangent t0, the
    two roll data p0 (start, fixed: a clamp) and the ratio c = EI / GJ (Θ = c M̂)."""

    r_end: np.ndarray
    t0: np.ndarray
    p0: np.ndarray
    c: float
    length: float  # [m]
    EI: float  # [N m²]

    @property
    def force_unit(self) -> float:
        """EI / L² [N]."""
        return self.EI / self.length**2


def _datum(q: np.ndarray) -> np.ndarray:
    """The roll-0 datum e₁ = Z × q / |Z × q|, Y for a vertical q (docs/higher_order.md)."""
    e = np.array([-q[1], q[0], 0.0])
    n = float(np.linalg.norm(e))
    return np.array([0.0, 1.0, 0.0]) if n < 1e-9 else e / n


def rov_rod(path: Path = EXAMPLE, t: float = 0.0) -> Rod:
    """The example's rod at time t: its ends where the case holds them (the roll held 0 at
    both, eq. D.4 of seed 004)."""
    from tetherdyn.case import load_case

    case = load_case(path)
    tt = case.tether
    p0 = np.asarray(case.end_state("start", t)[0], dtype=float)
    p1 = np.asarray(case.end_state("end", t)[0], dtype=float)
    t0 = np.asarray(case.start.clamp, dtype=float)
    t0 = t0 / np.linalg.norm(t0)
    return Rod(r_end=(p1 - p0) / tt.length, t0=t0, p0=_datum(t0), c=tt.EI / tt.GJ,
               length=float(tt.length), EI=float(tt.EI))


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
                     a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                     a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=1)


def _rates(P: np.ndarray, y: np.ndarray) -> np.ndarray:
    t, m, p = y[:, 3:6], y[:, 6:9], y[:, 9:12]
    dt = _cross(m, t)  # t' = m × t / EI (m = EI t × t' + M t)
    return np.concatenate([t, dt, _cross(P, t),  # m' = P × t (Antman: m' + r' × n = 0)
                           -np.sum(p * dt, axis=1)[:, None] * t], axis=1)  # transport


def shoot(rod: Rod, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Integrate every row of z = (P (3), b (2), M̂) from s = 0 to 1: returns the end states
    (r, t, m, p) and each rod's least tension min P·t (nondimensional, EI / L²)."""
    K = z.shape[0]
    P = z[:, 0:3]
    y = np.zeros((K, 12))
    y[:, 3:6] = rod.t0
    # the start's moment: the twisting moment along t0 and a bending moment b ⟂ t0
    e1 = rod.p0
    e2 = np.cross(rod.t0, e1)
    y[:, 6:9] = z[:, 5:6] * rod.t0 + z[:, 3:4] * e1 + z[:, 4:5] * e2
    y[:, 9:12] = rod.p0
    h = 1.0 / NSTEP
    tmin = P @ rod.t0
    for _ in range(NSTEP):
        k1 = _rates(P, y)
        k2 = _rates(P, y + 0.5 * h * k1)
        k3 = _rates(P, y + 0.5 * h * k2)
        k4 = _rates(P, y + h * k3)
        y = y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        tt = y[:, 3:6] / np.linalg.norm(y[:, 3:6], axis=1)[:, None]
        p = y[:, 9:12] - np.sum(y[:, 9:12] * tt, axis=1)[:, None] * tt
        y[:, 3:6] = tt
        y[:, 9:12] = p / np.linalg.norm(p, axis=1)[:, None]
        tmin = np.minimum(tmin, np.sum(P * tt, axis=1))
    return y, tmin


def twist(y: np.ndarray) -> np.ndarray:
    """Θ [rad] in (−π, π]: the angle about t(L) from the transported datum to the end's."""
    t, p = y[:, 3:6], y[:, 9:12]
    e1 = np.stack([-t[:, 1], t[:, 0], np.zeros(len(t))], axis=1)
    e1 /= np.linalg.norm(e1, axis=1)[:, None]
    return np.arctan2(np.sum(_cross(p, e1) * t, axis=1), np.sum(p * e1, axis=1))


def residual(rod: Rod, z: np.ndarray, M: float | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The end conditions of every row of z (7 columns; with a fixed M̂ = M, z has 5
    columns and the twist equation is left out), the least tension and Θ."""
    if M is not None:
        z = np.concatenate([z, np.full((len(z), 1), M)], axis=1)
    y, tmin = shoot(rod, z)
    th = twist(y)
    cols = [y[:, 0:3] - rod.r_end, _cross(y[:, 6:9], y[:, 3:6])]
    if M is None:
        d = th - rod.c * z[:, 5]
        cols.append(((d + math.pi) % (2.0 * math.pi) - math.pi)[:, None])
    return np.concatenate(cols, axis=1), tmin, th


def gauss_newton(rod: Rod, z: np.ndarray, M: float | None = None, iters: int = 60
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Damped Gauss-Newton on every row at once (forward-difference Jacobian): returns z,
    |residual|, least tension and Θ per row."""
    K, n = z.shape
    lam = np.ones(K)
    for _ in range(iters):
        F, _, _ = residual(rod, z, M)
        f0 = np.linalg.norm(F, axis=1)
        Fs, _, _ = residual(rod, np.concatenate([z + FD * np.eye(n)[j] for j in range(n)]), M)
        J = np.stack([(Fs[j * K:(j + 1) * K] - F) / FD for j in range(n)], axis=2)
        dz = np.stack([np.linalg.lstsq(J[k], -F[k], rcond=None)[0] for k in range(K)])
        step = np.minimum(1.0, 2.0 / np.maximum(np.linalg.norm(dz, axis=1), 1e-30))
        zn = z + (lam * step)[:, None] * dz
        f1 = np.linalg.norm(residual(rod, zn, M)[0], axis=1)
        ok = (f1 < f0) & np.all(np.isfinite(zn), axis=1)
        z = np.where(ok[:, None], zn, z)
        lam = np.where(ok, np.minimum(1.0, 2.0 * lam), 0.3 * lam)
    F, tmin, th = residual(rod, z, M)
    return z, np.linalg.norm(F, axis=1), tmin, th


def random_starts(rod: Rod, K: int, seed: int, M: float | None = None) -> np.ndarray:
    """K starts: half with P along the chord (tension, 0.5-20 EI/L²), half any direction;
    the start's bending moment and (M free) M̂ in [−3, 3] at random."""
    rng = np.random.default_rng(seed)
    P = rng.normal(0.0, 4.0, (K, 3))
    d = rod.r_end / np.linalg.norm(rod.r_end)
    P[: K // 2] = d * rng.uniform(0.5, 20.0, (K // 2, 1)) + rng.normal(0.0, 1.0, (K // 2, 3))
    cols = [P, rng.normal(0.0, 3.0, (K, 2))]
    if M is None:
        cols.append(rng.uniform(-3.0, 3.0, (K, 1)))
    return np.concatenate(cols, axis=1)


def equilibria(rod: Rod, K: int = 400, seed: int = 0, tol: float = 1e-9) -> list[dict]:
    """The distinct equilibria the multistart finds (any twist branch): M̂, Θ on its branch
    (Θ = c M̂), the branch j (Θ − Θ_(−π,π]) / 2π, the least tension [N] and P [N]."""
    z, res, tmin, th = gauss_newton(rod, random_starts(rod, K, seed))
    out: list[dict] = []
    for k in np.flatnonzero(res < tol):
        if any(np.linalg.norm(z[k] - o["z"]) < 1e-5 for o in out):
            continue
        M = float(z[k, 5])
        out.append(dict(z=z[k], M=M, theta=rod.c * M,
                        branch=round((rod.c * M - float(th[k])) / (2.0 * math.pi)),
                        t_min=float(tmin[k]) * rod.force_unit,
                        P=z[k, 0:3] * rod.force_unit))
    return sorted(out, key=lambda o: -o["t_min"])


def tensions_at(rod: Rod, M: float, K: int = 100, seed: int = 0, tol: float = 1e-9
                ) -> list[float]:
    """At a fixed twisting moment M̂ (nondimensional, M L / EI), the least tension [N] of
    every distinct rod through the ends (clamp, pinned end without bending moment) that
    the multistart finds, twist equation left out: a shape at rest without compression at
    that M would show a least tension ≥ 0."""
    z, res, tmin, _ = gauss_newton(rod, random_starts(rod, K, seed, M), M)
    seen: list[np.ndarray] = []
    out: list[float] = []
    for k in np.flatnonzero(res < tol):
        if any(np.linalg.norm(z[k] - o) < 1e-5 for o in seen):
            continue
        seen.append(z[k])
        out.append(float(tmin[k]) * rod.force_unit)
    return sorted(out, reverse=True)


def main(argv: list[str]) -> None:
    if argv and argv[0] == "scan":  # scan K seed M̂...: fixed twisting moments
        rod = rov_rod()
        K, seed = int(argv[1]), int(argv[2])
        for M in (float(a) for a in argv[3:]):
            ts = tensions_at(rod, M, K, seed)
            print(f"M̂ {M:+.3f} (M {M * rod.EI / rod.length:+.4g} N m, Θ = {rod.c * M:+.3f} "
                  f"rad): {len(ts)} rods, least tensions [N] "
                  + " ".join(f"{v:+.4g}" for v in ts), flush=True)
        return
    global NSTEP
    K = int(argv[0]) if argv else 400
    seed = int(argv[1]) if len(argv) > 1 else 0
    if len(argv) > 2:
        NSTEP = int(argv[2])
    rod = rov_rod()
    found = equilibria(rod, K, seed)
    print(f"rov_manoeuvre.yaml at t = 0 as a Kirchhoff rod (EI/GJ = {rod.c:.4g}, chord/L = "
          f"{np.linalg.norm(rod.r_end):.4f}): {len(found)} distinct equilibria from {K} "
          f"random starts (seed {seed}), RK4 {NSTEP} steps")
    for o in found:
        print(f"  least tension {o['t_min']:+.4g} N  M {o['M'] * rod.EI / rod.length:+.4g} N m"
              f"  Θ {o['theta']:+.4f} rad (branch {o['branch']:+d})  P [N] "
              + " ".join(f"{v:+.4g}" for v in o["P"]))


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/python3
"""Reference values of Optuna 3.1's Parzen estimator for search/tpe/parzen_test.go.

Regenerate (Debian python3-optuna 3.1.0) with:

    /usr/bin/python3 search/tpe/testdata/gen_optuna31_parzen.py > search/tpe/testdata/optuna31_parzen.json

Each case fits optuna.samplers._tpe.parzen_estimator._ParzenEstimator with Optuna's default
parameters (prior on, weight 1, magic clip on, endpoints off, default_weights) to fixed
observations and records the kernel centres, bandwidths, mixture weights and the log density
at probe points, all in Optuna's internal space (log for log=True).

"log_pdf_optuna31" is Optuna 3.1's own log_pdf. Its continuous kernels omit the -log(sigma)
term of the Gaussian density (optuna/optuna#5109, fixed by #5110 in Optuna 3.5), so
"log_pdf" recomputes the mixture from the same kernels with that term restored: that is the
density gctune's TPE must match.
"""
import json

import numpy as np
from optuna import distributions as D
from optuna.samplers._tpe import _truncnorm
from optuna.samplers._tpe.parzen_estimator import _ParzenEstimator, _ParzenEstimatorParameters
from optuna.samplers._tpe.sampler import default_weights

rng = np.random.RandomState(7)


def case(name, space, obs, probes, multivariate=False):
    params = _ParzenEstimatorParameters(True, 1.0, True, False, default_weights, multivariate)
    pe = _ParzenEstimator({k: np.asarray(v, dtype=float) for k, v in obs.items()}, space, params)
    out = {"name": name, "multivariate": multivariate, "weights": pe._weights.tolist(), "dims": []}
    for k, d in space.items():
        dim = {"name": k, "obs": list(map(float, obs[k])), "probes": list(map(float, probes[k]))}
        if isinstance(d, D.CategoricalDistribution):
            dim.update(kind="categorical", n_choices=len(d.choices),
                       cat_weights=pe._categorical_weights[k].tolist())
        else:
            kind = "float"
            if isinstance(d, D.IntDistribution):
                kind = "int"
            elif d.log:
                kind = "log"
            dim.update(kind=kind, low=d.low, high=d.high, step=getattr(d, "step", None) or 0,
                       mus=pe._mus[k].tolist(), sigmas=pe._sigmas[k].tolist())
        out["dims"].append(dim)
    out["log_pdf_optuna31"] = pe.log_pdf({k: np.asarray(v) for k, v in probes.items()}).tolist()
    out["log_pdf"] = fixed_log_pdf(pe, space, probes).tolist()
    return out


def fixed_log_pdf(pe, space, probes):
    """Optuna 3.1's log_pdf with the Gaussian's -log(sigma) restored (optuna#5110)."""
    n = len(next(iter(probes.values())))
    comp = np.zeros((n, len(pe._weights)))
    for k, d in space.items():
        x = np.asarray(probes[k], dtype=float)
        if isinstance(d, D.CategoricalDistribution):
            comp += np.log(pe._categorical_weights[k].T[x.astype(int), :])
            continue
        if getattr(d, "log", False):
            x = np.log(x)
        mus, sigmas, low, high, q = pe._mus[k], pe._sigmas[k], pe._low[k], pe._high[k], pe._q[k]
        log_mass = _truncnorm._log_gauss_mass((low - mus) / sigmas, (high - mus) / sigmas)
        if q is None:
            z = (x[:, None] - mus) / sigmas
            comp += -0.5 * z**2 - 0.5 * np.log(2 * np.pi) - np.log(sigmas) - log_mass
        else:
            lo = np.maximum(x - q / 2, low)[:, None]
            hi = np.minimum(x + q / 2, high)[:, None]
            comp += _truncnorm._log_gauss_mass((lo - mus) / sigmas, (hi - mus) / sigmas) - log_mass
    w = comp + np.log(pe._weights)
    mx = w.max(axis=1)
    return np.log(np.exp(w - mx[:, None]).sum(axis=1)) + mx


F = D.FloatDistribution(-5.0, 5.0)
L = D.FloatDistribution(1e-5, 1e5, log=True)
I = D.IntDistribution(0, 9)
S = D.IntDistribution(2, 20, step=3)
C = D.CategoricalDistribution(["a", "b", "c", "d"])
fprobe = [-5.0, -4.9, -2.5, 0.0, 0.3, 1.7, 4.99, 5.0]
cases = [
    case("float-n0", {"x": F}, {"x": []}, {"x": fprobe}),
    case("float-n1", {"x": F}, {"x": [2.0]}, {"x": fprobe}),
    case("float-n2", {"x": F}, {"x": [-1.0, 3.0]}, {"x": fprobe}),
    case("float-ties", {"x": F}, {"x": [1.0, 1.0, 1.0, -4.0]}, {"x": fprobe}),
    case("float-n7", {"x": F}, {"x": rng.uniform(-5, 5, 7).tolist()}, {"x": fprobe}),
    case("float-n40", {"x": F}, {"x": rng.uniform(-5, 5, 40).tolist()}, {"x": fprobe}),
    case("float-n120-clip", {"x": F}, {"x": rng.normal(1.5, 0.01, 120).clip(-5, 5).tolist()}, {"x": fprobe}),
    case("log-n6", {"x": L}, {"x": np.exp(rng.uniform(np.log(1e-5), np.log(1e5), 6)).tolist()},
         {"x": [1e-5, 3e-3, 1.0, 100.0, 1e5]}),
    case("int-n5", {"x": I}, {"x": [0, 3, 3, 9, 7]}, {"x": [0, 1, 3, 8, 9]}),
    case("stepint-n4", {"x": S}, {"x": [2, 5, 20, 11]}, {"x": [2, 8, 14, 20]}),
    case("cat-n5", {"x": C}, {"x": [0, 2, 2, 3, 2]}, {"x": [0, 1, 2, 3]}),
    case("multi-3d-n8", {"a": F, "b": L, "c": C},
         {"a": rng.uniform(-5, 5, 8).tolist(),
          "b": np.exp(rng.uniform(np.log(1e-5), np.log(1e5), 8)).tolist(),
          "c": rng.randint(0, 4, 8).tolist()},
         {"a": [-5.0, 0.0, 1.5, 4.0], "b": [1e-5, 1.0, 100.0, 1e4], "c": [0, 1, 2, 3]},
         multivariate=True),
]
print(json.dumps({"optuna": "3.1.0", "cases": cases}, indent=1))

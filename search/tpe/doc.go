// Package tpe is gctune's Tree-structured Parzen Estimator, a seeded goptuna.Sampler and
// goptuna.RelativeSampler (NewSampler). Package search builds it for its "tpe" and
// "tpe-independent" samplers; it depends on goptuna only, never on search.
//
// goptuna's own tpe package is not used: its kernel centres are scrambled by an in-place sort,
// its Gaussian distance is not squared, its log-sum-exp and acceptance weights are wrong, and
// it draws from the global math/rand (docs/search.md, "samplers", lists the faults). This one
// is written from the algorithm:
//
//   - Bergstra, Bardenet, Bengio, Kégl 2011, "Algorithms for Hyper-Parameter Optimization"
//     (NeurIPS): TPE, the adaptive Parzen estimator, the prior and the EI criterion.
//   - Bergstra, Yamins, Cox 2013, "Making a Science of Model Search" (ICML): the linear
//     forgetting ramp of observation weights.
//   - Falkner, Klein, Hutter 2018, "BOHB" (ICML): the multivariate kernel density.
//   - Optuna's TPESampler (v3.1) documentation and defaults, against which it is benchmarked
//     (bench_test.go, scripts/bench_samplers_bowl.py).
//
// sampler.go holds the sampler (history, good/bad split, candidate choice), parzen.go the
// Parzen estimator (search-space transform, kernel fit, sampling, log density).
package tpe

// Package uncertainty is gctune's model of what differs between the run a profile (or a spec)
// describes and the user's later runs of the same application, and the perturbed replicas that
// stand for those runs.
//
// A recommendation that is the best point of one deterministic simulation can sit on a cliff:
// on dataframe-3.1gb the simulated run time is a comb along the new-space size, because the
// scavenges fall just right, or just wrong, relative to the large allocations. A real run never
// allocates exactly as the profiled one did, so gctune judges every configuration on K replicas
// of the run, each perturbed in the ways a later run differs (Model, docs/search.md "Robust
// answers"):
//
//   - where in its eden cycle the work starts (what the image allocated before it is unknown);
//   - how much it allocates: every object scaled by a factor near 1 (another input, another
//     image), and young garbage between phases (the UI process, finalisation);
//   - the cost model's error: each group of coefficients (mutator, scavenge, full GC) scaled by
//     a log-normal factor.
//
// The VM's own rounding of each parameter (the new space to pages, param 6 in 64-byte units,
// segments to powers of two) is not random: heapsim applies it in every simulation, and
// exported sizes are the whole MiB that were simulated.
//
// Replicas are drawn once per study from its seed (Model.Draw): every trial is judged on the
// same K perturbations (common random numbers), so trials compare paired, and the same seed
// gives the same replicas. Package objective simulates them; Statistic reduces a trial's K
// values to the value the search minimises, and Interval states the spread a user should expect.
package uncertainty

// Package diagnose says why a configuration is faster than the VM defaults, with the evidence,
// by simulation: it re-simulates a study's default and best runs (with their event logs for
// the report's figures), finds the four pathologies of the default run and what each cost,
// confirms each remedy by putting the best's changes back one at a time (Diagnose, and
// Diagnosis.WriteText for gctune explain), sweeps each parameter around the best (Sensitivity)
// and judges the landscape around a recommendation (JudgeLandscape), all on one bounded Pool
// of simulations. It draws nothing and writes no HTML: package report does, from its results.
package diagnose

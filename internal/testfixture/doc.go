// Package testfixture builds the profiles and problems that the tests of several packages
// share, exactly as the commands build them with the default configuration: a workload is
// generated with seed 1 (config.yaml's workload.seed), and a problem uses the calibrated cost
// model (heapsim.DefaultCost) and the VM defaults (heapsim.DefaultParams).
//
// It is for tests only: its functions take a testing.TB and fail the test on an error.
// Packages that testfixture imports (lifetimes, heapsim, objective) cannot use it in their
// own in-package tests.
package testfixture

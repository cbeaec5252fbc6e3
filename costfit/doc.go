// Package costfit closes the loop between gctune's simulator and the user's machine: it reads
// what Pharo measured for one run of the application at the default GC parameters (wall time
// and, when known, GC time, scavenges and full GCs with their times), and scales heapsim's cost
// model so that the simulated default run takes the measured times.
//
// The simulator's mechanics (how many scavenges and full GCs, how much is copied, marked and
// compacted) do not depend on the cost model; every simulated time is a linear function of the
// cost coefficients. So NewBasis simulates the run four times, with the mutator, scavenge and
// full-GC groups of the base cost switched on one at a time (and all off), and Fit solves the
// linear equations the measurement gives for as many group scales as it determines: wall time
// alone gives one scale for everything; wall and GC time a mutator scale and one GC scale;
// scavenge and full-GC seconds a scale each. Counts are compared, never fitted: they check that
// the profile reproduces the run's mechanics.
//
// heapsim's own calibration is fitted here too (FitDefaultRuns, used by go run
// ./heapsim/calibrate): the scales that best match, in log least squares, the published default
// runs of the bundled DataFrame workloads, each split by group from one simulation: the GC
// scales on GC time, then the mutator scale on total time.
//
// The package also reads and writes the cost file (`gctune calibrate -o cost.yaml`, loaded by
// every command's --cost) and holds the Pharo snippet that writes a measurement.
package costfit

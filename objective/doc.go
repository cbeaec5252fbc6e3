// Package objective turns a GC configuration into the number gctune minimises.
//
// A Problem holds one or more workloads (lifetime profiles), the cost model and the settings
// of the objective. Evaluate simulates every workload under the proposed heapsim.Params and
// returns a Result:
//
//   - with one workload the value is its simulated total run time in seconds (mutator + GC);
//   - with several it is the worst (Aggregate "max") or the mean ("mean") slowdown against each
//     workload's own run at the default parameters, so one configuration is robust across
//     data sizes (1.0 = as fast as the defaults, 0.1 = ten times faster). Workloads that are
//     alternative readings of one run (Workload.Run: a sampled export's two hypotheses) are
//     averaged into that run's slowdown first.
//
// A memory budget (MaxFootprintBytes) is a hard constraint: a configuration whose peak
// footprint exceeds it on any workload is infeasible. Its value is penalised so that samplers
// that only see values (CMA-ES, random) learn to avoid it, and Result.Feasible is false so that
// the TPE sampler puts it in its "bad" group and best-trial queries never pick it. A run that
// exhausts a maximum old space (heapsim.ErrOutOfMemory) is infeasible too. A non-finite value
// is an error, never a value.
//
// The package knows nothing of search or storage.
package objective

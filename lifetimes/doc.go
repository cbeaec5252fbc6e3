// Package lifetimes owns gctune's input: an application's object-lifetime Profile.
//
// A Profile is a list of sampled allocation records (class, size, birth and death, weight)
// on one canonical clock, bytes allocated since the start of the run, the clock GC research
// uses (Merlin, Elephant Tracks) because it does not depend on how fast the collector is.
// Profiles come from three places:
//
//   - FiLiP / Illimani exports (a .csv of records plus a .json of run metadata), read by
//     ReadFiLiP, which tells the exporter's era (and so the clock) from the files and converts
//     older microsecond clocks to the bytes clock (docs/filip.md; files filip_*.go: the API,
//     the era table, the row scanner, the parallel chunker, the metadata, the clocks and the
//     conversion); a sampled export on the bytes clock is then rebuilt by Rebuild (small
//     objects weigh 1/rate, large ones are placed where the clock shows them), which Open
//     does; WriteFiLiPSample writes any profile as a sampled export, as the current exporter
//     would;
//   - workload specs (YAML) describing classes, size and lifetime distributions, phases,
//     direct-to-old allocations and containers, turned into a Profile by Generate with a seed
//     and a resolution;
//   - the bundled workloads, specs embedded in the binary (dataframe-500mb, ...).
//
// The package also analyses a Profile (long-lived fraction by count and by bytes, per-class
// tables, lifetime histograms, live bytes). It knows nothing of GC parameters or search.
package lifetimes

// Package filip reads and writes FiLiP / Illimani exports (a .csv of allocation records and
// a .json of run metadata) and rebuilds sampled ones.
//
//   - Read tells the exporter's era (and so the clock) from the files and converts older
//     microsecond clocks to the bytes clock (docs/filip.md; files filip_*.go: the API, the era
//     table, the row scanner, the parallel chunker, the metadata, the clocks and the
//     conversion).
//   - Rebuild rebuilds a sampled export on the bytes clock: small objects weigh 1/rate, large
//     ones are placed where the clock shows them, their lifetimes and pointers guessed by a
//     Hypothesis (docs/sampling.md; rebuild.go, rebuild_stored.go).
//   - WriteSample writes any profile as a sampled export, as the current exporter would;
//     WriteSampleFiles writes it to a CSV and its metadata beside it, both or neither.
//
// It imports profile, never the spec language, the binary format or the analysis.
package filip

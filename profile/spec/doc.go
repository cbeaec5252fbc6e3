// Package spec is gctune's workload spec language and its generator.
//
// A workload spec (YAML) describes an application's allocations: classes with their size and
// lifetime distributions, phases mixing them, direct-to-old allocations, containers and what
// is stored into them. Parse and Load read one node by node, bounded in size and alias
// expansion (yamlbound.go), and validate every key with its path and line (Error);
// Spec.Generate turns it into a profile.Profile with a seed and a resolution. The bundled
// workloads are specs embedded in the binary (Bundled, BundledSpec: dataframe-500mb, ...),
// documented in docs/workloads.md.
package spec

package spec

import (
	"errors"
	"fmt"
	"github.com/gctune/gctune/internal/profiletest"
	"io/fs"
	"testing"
	"time"
)

// fuzzMaxRecords keeps each fuzz generation small: specs that would produce more records are
// refused by the estimate (or stopped by the hard limit) with ErrTooManyRecords.
const fuzzMaxRecords = 20_000

// FuzzParseSpec feeds arbitrary documents to Parse and generates whatever parses, with a
// small record budget. It must never panic; it must return either an error wrapping
// ErrInvalid (parse) or ErrTooManyRecords (generate), or a valid Profile within budget.
// The seed corpus is every bundled workload and every testdata spec; the fuzzer's finds are
// kept in testdata/fuzz/FuzzParseSpec.
func FuzzParseSpec(f *testing.F) {
	entries, err := fs.ReadDir(bundledFS, "workloads")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		data, err := bundledFS.ReadFile("workloads/" + e.Name())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, spec := range profiletest.ReadTestdata(f, "specs", "*.yaml") {
		f.Add(spec.Data)
	}
	f.Add([]byte(specBase))
	// Compact one-line specs: byte-level mutations of these often stay valid YAML and valid
	// specs, so the generator gets fuzzed too, not only the parser.
	for _, dist := range []string{
		"immediate", "until-end", "until-phase-end", "2KB", "{dist: uniform}", "{dist: uniform, min: 1, max: 9KB}",
		"{dist: exponential, mean: 3KB}", "{dist: lognormal, median: 1KB, sigma: 2}", "{dist: normal, mean: 4KB, stddev: 9KB}",
		"{dist: gamma, mean: 1KB, shape: 0.5}", "{dist: weibull, scale: 1KB, shape: 3}", "{dist: pareto, scale: 100, alpha: 0.5}",
		"{dist: choice, values: [0, 1KB], weights: [1, 2]}", "{dist: fraction-of-run, fraction: 0.5}",
	} {
		f.Add([]byte("{name: a, classes: [{name: A, size: 24}, {name: B, size: {dist: lognormal, median: 40, sigma: 1}}], " +
			"phases: [{name: p, allocate: 64KB, mix: [{class: A, share: 0.5, lifetime: " + dist + "}, " +
			"{class: B, share: 0.5, lifetime: immediate}]}, {name: q, allocate: 0, large: [{class: A, size: 1MB, count: 3, at: random}], " +
			"growing: [{class: B, count: 2, from: 16, to: 4KB}], containers: [{class: A, slots: 300}]}]}"))
	}
	f.Add([]byte("{name: b, resolution: 0.5, allocate: 1MB, classes: [{name: A, size: {dist: uniform, min: 16, max: 64}}], " +
		"phases: [{name: p, allocate: 40%, mix: [{class: A, share: 1, lifetime: {dist: exponential, mean: 1KB}}]}, " +
		"{name: q, allocate: 60%, mix: [{class: A, share: 1, resolution: 1, lifetime: {dist: until-phase-end, phase: q}}], " +
		"large: [{class: A, count: 2, every: 100KB}]}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// A hang is a bug too: crash with the input rather than stall the fuzzer.
		watchdog := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("FuzzParseSpec: input takes over 10 s: %q", data)) })
		defer watchdog.Stop()
		s, err := Parse(data, "fuzz.yaml")
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse error does not wrap ErrInvalid: %v", err)
			}
			if s != nil {
				t.Fatal("Parse returned a spec with an error")
			}
			return
		}
		// Generate at a resolution that fits the budget, so that big specs (the bundled ones and
		// their mutations) exercise the generator too instead of stopping at the estimate.
		res := s.generationResolution(0)
		if est := s.EstimateRecords(0); est > fuzzMaxRecords/2 {
			res = max(res*fuzzMaxRecords/2/est, specMinResolution)
		}
		for _, seed := range []uint64{1, 2} {
			p, err := s.Generate(GenerateOptions{Seed: seed, Resolution: res, MaxRecords: fuzzMaxRecords})
			if err != nil {
				if !errors.Is(err, ErrTooManyRecords) {
					t.Fatalf("Generate of a valid spec failed: %v", err)
				}
				return
			}
			if err := p.Validate(); err != nil {
				t.Fatalf("generated profile is invalid: %v", err)
			}
			if p.Len() > fuzzMaxRecords {
				t.Fatalf("generated %d records, budget %d", p.Len(), fuzzMaxRecords)
			}
			if p.Meta.TotalAllocatedBytes > p.Meta.EndBytes {
				t.Fatalf("allocated %d bytes in a run of %d", p.Meta.TotalAllocatedBytes, p.Meta.EndBytes)
			}
		}
	})
}
